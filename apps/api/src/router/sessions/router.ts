import { resource } from "../../trpc.ts";
import { approveDeviceSignIn } from "./approve-device-sign-in.ts";
import { denyDeviceSignIn } from "./deny-device-sign-in.ts";
import { endSession } from "./end-session.ts";
import { exchangeSignInLink } from "./exchange-sign-in-link.ts";
import { getDeviceSignIn } from "./get-device-sign-in.ts";
import { pollDeviceSignIn } from "./poll-device-sign-in.ts";
import { startDeviceSignIn } from "./start-device-sign-in.ts";

export const sessionsRouter = resource(
  approveDeviceSignIn,
  denyDeviceSignIn,
  endSession,
  exchangeSignInLink,
  getDeviceSignIn,
  pollDeviceSignIn,
  startDeviceSignIn,
);
