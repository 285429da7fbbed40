import { resource } from "../../trpc.ts";
import { approveApproval } from "./approve-approval.ts";
import { denyApproval } from "./deny-approval.ts";
import { extendApproval } from "./extend-approval.ts";
import { getApproval } from "./get-approval.ts";
import { listApprovals } from "./list-approvals.ts";
import { markGateRan } from "./mark-gate-ran.ts";
import { openGate } from "./open-gate.ts";
import { waitGate } from "./wait-gate.ts";

export const approvalsRouter = resource(
  approveApproval,
  denyApproval,
  extendApproval,
  getApproval,
  listApprovals,
  markGateRan,
  openGate,
  waitGate,
);
