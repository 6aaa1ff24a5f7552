/** Placeholder until its owner lands the real command. */
export async function sandboxCommand(_argv: string[]): Promise<number> {
  process.stderr.write("chainpulse sandbox: not available in this build\n");
  return 1;
}
