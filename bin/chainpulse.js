#!/usr/bin/env node
import { main } from "../dist/main.js";

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === "number") process.exitCode = code;
  },
  (err) => {
    console.error(`chainpulse: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
