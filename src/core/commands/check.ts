import { isAddressFor } from "../../market/ids.js";
import { CONTRACT_CHECK_CHAINS } from "../../market/limits.js";
import { v1ContractReport } from "../../market/v1-records.js";
import { defineCommand } from "../command.js";
import { cleanText, shortAddress } from "../format/index.js";
import { malformedError } from "../resolve/addresses.js";
import { refreshButton } from "../reply-parts.js";
import { riskReply } from "./risk.js";

/** `/check <chain> <contract>`: the v1 contract check, read as a risk report. */
export const checkCommand = defineCommand({
  name: "check",
  description: "Contract check (v1) of a contract on bsc, eth, arbitrum or core",
  args: [
    { name: "chain", description: "Chain of the contract", type: "chain", required: true, choices: CONTRACT_CHECK_CHAINS },
    { name: "contract", description: "Contract address (0x…)", type: "text", required: true },
  ],
  examples: ["/check eth 0x6982508145454ce325ddbe47a25d4ec3d2311933"],
  async run(ctx, args) {
    const chain = args.chain;
    const contract = args.contract.trim();
    if (!isAddressFor(contract, chain)) {
      throw malformedError(contract) ?? ctx.i18n.fail("check-not-contract", { contract: cleanText(contract, 48), chain });
    }
    const address = contract.toLowerCase();
    const checked = await ctx.market.v1ContractCheck({ chain, contract: address });
    const read = v1ContractReport(checked.data);
    const report = read === undefined ? undefined : { ...checked, data: read };
    return riskReply(ctx, {
      title: ctx.i18n.t("check-title", { contract: shortAddress(address), chain }),
      report,
      fetchedAt: checked.fetchedAt,
      actions: [[refreshButton("check", [chain, address], ctx.i18n)]],
    });
  },
});
