import { usage } from "../args.js";
import { defineCommand, type Command } from "../command.js";
import { cleanText } from "../format/index.js";
import { openButton } from "../reply-parts.js";
import { describeArg, describeCommand } from "../../i18n/index.js";

/**
 * Whether a description already names each choice (`u: USD, r: …`, `on or off`): listing them
 * again after it repeats it.
 */
function explainsEach(description: string, choices: readonly string[]): boolean {
  const words = new Set(description.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  return choices.every((c) => words.has(c.toLowerCase()));
}

/** `/help [command]`, written from the registry it is given. */
export function createHelpCommand(list: () => readonly Command[]): Command {
  return defineCommand({
    name: "help",
    description: "What I can do, or how to use one command",
    args: [{ name: "command", description: "A command name, e.g. price", type: "text", required: false }],
    examples: ["/help", "/help price"],
    async run(ctx, args) {
      const { t } = ctx.i18n;
      const wanted = args.command;
      const commands = list();
      if (wanted === undefined) {
        return {
          title: t("help-title"),
          tone: "info",
          blocks: [
            { kind: "fields", fields: commands.map((c) => ({ label: usage(c), value: describeCommand(c, ctx.i18n) })) },
            { kind: "text", text: t("help-tokens") },
          ],
          actions: [[openButton(t("button-trending"), "trending", []), openButton(t("button-top-hot"), "top", ["hot"]), openButton(t("button-chains"), "chains", [])]],
        };
      }
      const name = wanted.replace(/^\//, "").toLowerCase();
      const cmd = commands.find((c) => c.name === name || (c.aliases ?? []).includes(name));
      if (cmd === undefined) throw ctx.i18n.fail("help-no-command", { name: cleanText(name, 32) });
      // Discord registers each command by its name alone: an alias there is a command nobody can run.
      const unregistered = new Set(ctx.chat.platform === "discord" ? (cmd.aliases ?? []) : []);
      const aliases = (cmd.aliases ?? []).filter((a) => !unregistered.has(a));
      const examples = cmd.examples.filter((e) => !unregistered.has(e.slice(1).split(" ")[0] ?? ""));
      return {
        title: usage(cmd),
        tone: "info",
        blocks: [
          { kind: "text", text: describeCommand(cmd, ctx.i18n) },
          ...(cmd.args.length === 0
            ? []
            : [{
                kind: "fields" as const,
                fields: cmd.args.map((a) => ({
                  label: a.required ? a.name : t("help-optional", { name: a.name }),
                  value: a.choices === undefined || explainsEach(describeArg(cmd, a, ctx.i18n), a.choices)
                    ? describeArg(cmd, a, ctx.i18n)
                    : t("help-choices", { description: describeArg(cmd, a, ctx.i18n), choices: a.choices.join(", ") }),
                })),
              }]),
          { kind: "text", text: t("help-examples", { examples: examples.join("  ·  ") }) },
          ...(aliases.length === 0 ? [] : [{ kind: "text" as const, text: t("help-aliases", { aliases: aliases.map((a) => `/${a}`).join(", ") }) }]),
        ],
        actions: [],
      };
    },
  });
}
