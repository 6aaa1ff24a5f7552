/** Placeholder until its owner lands the real command. */
export async function discordRegisterCommand(_argv: string[]): Promise<number> {
  process.stderr.write("chainpulse discord register: not available in this build\n");
  return 1;
}
