/** Placeholder until its owner lands the real command. */
export async function askCommand(_argv: string[]): Promise<number> {
  process.stderr.write("chainpulse ask: not available in this build\n");
  return 1;
}
