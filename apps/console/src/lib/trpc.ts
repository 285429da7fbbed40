"use client";

import type { AppRouter } from "@fleet/api/router";
import type { TRPCClientErrorLike } from "@trpc/client";
import type { inferRouterOutputs } from "@trpc/server";
import { createTRPCContext } from "@trpc/tanstack-react-query";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** Procedure outputs as the router declares them; the console restates no shape. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type ApiError = TRPCClientErrorLike<AppRouter>;
