"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";

/** Creates a secret; the secrets lists are refreshed before `onCreated` hears of it. */
export function useCreateSecret(onCreated: (name: string) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.secrets.create.mutationOptions({
      // The request carried the value: keep it out of the mutation cache once the form lets go.
      gcTime: 0,
      onSuccess: async (created) => {
        await queryClient.invalidateQueries({ queryKey: trpc.secrets.list.pathKey() });
        onCreated(created.name);
      },
    }),
  );
}
