import { router } from "../../trpc.ts";
import { exchangeSignInLink } from "./exchange-sign-in-link.ts";

export const authRouter = router({ exchangeSignInLink });
