import { resource } from "../../trpc.ts";
import { getApprovalPolicy } from "./get-approval-policy.ts";
import { replaceApprovalPolicy } from "./replace-approval-policy.ts";

export const approvalPoliciesRouter = resource(getApprovalPolicy, replaceApprovalPolicy);
