import { resource } from "../../trpc.ts";
import { exchangeSignInLink } from "./exchange-sign-in-link.ts";

export const sessionsRouter = resource(exchangeSignInLink);
