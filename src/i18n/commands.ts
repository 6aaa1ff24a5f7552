/**
 * Commands in a language: `/help` and the platforms' command menus read a command's
 * description as message `cmd-<name>`, an argument's as `cmd-<name>-<arg>` and a word choice's
 * label as `cmd-<name>-<arg>-<choice>`. The registry's English is the answer when no file has
 * the message (a test keeps `en.ftl` equal to the registry).
 */
import type { ArgSpec, Command } from "../core/command.js";
import type { Translator } from "./translator.js";

export function commandKey(command: Pick<Command, "name">): string {
  return `cmd-${command.name}`;
}

export function argKey(command: Pick<Command, "name">, arg: Pick<ArgSpec, "name">): string {
  return `cmd-${command.name}-${arg.name}`;
}

/** A command's one-line description in `i18n`'s language. */
export function describeCommand(command: Command, i18n: Translator): string {
  const key = commandKey(command);
  return i18n.has(key) ? i18n.t(key) : command.description;
}

/** An argument's description in `i18n`'s language. */
export function describeArg(command: Command, arg: ArgSpec, i18n: Translator): string {
  const key = argKey(command, arg);
  return i18n.has(key) ? i18n.t(key, arg.descriptionArgs) : arg.description;
}

/** The label of a choice that is a word of the bot (e.g. `above`), or undefined for data (chains, topics). */
export function choiceLabel(command: Command, arg: ArgSpec, choice: string, i18n: Translator): string | undefined {
  const key = `${argKey(command, arg)}-${choice}`;
  return i18n.has(key) ? i18n.t(key) : undefined;
}
