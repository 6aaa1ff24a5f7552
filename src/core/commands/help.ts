import { usage } from "../args.js";
import type { Command } from "../command.js";
import { UserError } from "../errors.js";
import { cleanText } from "../format/index.js";
import { openButton } from "../reply-parts.js";

/** `/help [command]`, written from the registry it is given. */
export function createHelpCommand(list: () => readonly Command[]): Command {
  return {
    name: "help",
    description: "What I can do, or how to use one command",
    args: [{ name: "command", description: "A command name, e.g. price", type: "text", required: false }],
    examples: ["/help", "/help price"],
    async run(_ctx, args) {
      const wanted = args["command"] as string | undefined;
      const commands = list();
      if (wanted === undefined) {
        return {
          title: "What I can do",
          tone: "info",
          blocks: [
            { kind: "fields", fields: commands.map((c) => ({ label: usage(c), value: c.description })) },
            { kind: "text", text: "A token can be a symbol (pepe), a name, an address, address-chain, or a pasted link. /help <command> shows examples." },
          ],
          actions: [[openButton("Trending", "trending", []), openButton("Top hot", "top", ["hot"]), openButton("Chains", "chains", [])]],
        };
      }
      const name = wanted.replace(/^\//, "").toLowerCase();
      const cmd = commands.find((c) => c.name === name || (c.aliases ?? []).includes(name));
      if (cmd === undefined) throw new UserError(`There is no /${cleanText(name, 32)}; /help lists every command.`);
      return {
        title: usage(cmd),
        tone: "info",
        blocks: [
          { kind: "text", text: cmd.description },
          ...(cmd.args.length === 0
            ? []
            : [{
                kind: "fields" as const,
                fields: cmd.args.map((a) => ({
                  label: `${a.name}${a.required ? "" : " (optional)"}`,
                  value: a.choices === undefined ? a.description : `${a.description}: ${a.choices.join(", ")}`,
                })),
              }]),
          { kind: "text", text: `Examples: ${cmd.examples.join("  ·  ")}` },
          ...(cmd.aliases === undefined || cmd.aliases.length === 0 ? [] : [{ kind: "text" as const, text: `Also: ${cmd.aliases.map((a) => `/${a}`).join(", ")}` }]),
        ],
        actions: [],
      };
    },
  };
}
