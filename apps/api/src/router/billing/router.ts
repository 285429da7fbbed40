import { resource } from "../../trpc.ts";
import { creditTenant } from "./credit-tenant.ts";
import { getBilling } from "./get-billing.ts";
import { getBudget } from "./get-budget.ts";
import { listCharges } from "./list-charges.ts";
import { updateBudget } from "./update-budget.ts";

export const billingRouter = resource(creditTenant, getBilling, getBudget, listCharges, updateBudget);
