/** Placeholder until its owner lands the real command. */
export async function startCommand(_argv: string[]): Promise<number> {
  process.stderr.write("chainpulse start: not available in this build\n");
  return 1;
}
