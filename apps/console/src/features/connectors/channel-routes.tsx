"use client";

import { Button, SelectField, TextField } from "@fleet/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ActionProblem } from "../../components/query-problem.tsx";
import { forgetOnEdit } from "../../lib/field-errors.ts";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import "./channel-routes.css";

const CHANNEL = /^[A-Za-z0-9_-]{1,64}$/;

/** Which fleet answers in which channel: the list, a form to route a channel, and a remove per route. */
export function ChannelRoutes({ where }: { where: { workspace_id: string; provider: string } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const routes = useQuery(trpc.connectors.listRoutes.queryOptions(where));
  const fleets = useQuery(trpc.fleets.list.queryOptions({ workspace_id: where.workspace_id, limit: 100 }));
  const [channel, setChannel] = useState("");
  const [fleetId, setFleetId] = useState("");
  const [invalid, setInvalid] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.connectors.listRoutes.pathKey() });
  const set = useMutation(
    trpc.connectors.setRoute.mutationOptions({
      onSuccess: async () => {
        setChannel("");
        await refresh();
      },
    }),
  );
  const remove = useMutation(trpc.connectors.deleteRoute.mutationOptions({ onSuccess: refresh }));
  const fleetName = (id: string) => fleets.data?.items.find((fleet) => fleet.id === id)?.name ?? id;
  const items = routes.data?.items ?? [];
  const chosenFleet = fleetId || fleets.data?.items[0]?.id || "";
  return (
    <div className="connector-routes">
      <h4 className="connector-routes__title">Channel routes</h4>
      {routes.error ? <p className="muted">{problemOf(routes.error).detail}</p> : null}
      {items.length === 0 && routes.data ? (
        <p className="muted">No channel is routed yet: messages to the app reach no fleet.</p>
      ) : (
        <ul className="connector-routes__list" aria-label="Channel routes">
          {items.map((route) => (
            <li key={route.channel_id} data-channel={route.channel_id}>
              <code>{route.channel_id}</code> → {fleetName(route.fleet_id)}{" "}
              <Button
                size="sm"
                aria-label={`Remove the route of channel ${route.channel_id}`}
                pending={remove.isPending && remove.variables?.channel_id === route.channel_id}
                onClick={() => remove.mutate({ ...where, channel_id: route.channel_id })}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="connector-routes__form"
        noValidate
        onInput={forgetOnEdit(set)}
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = channel.trim();
          if (!CHANNEL.test(trimmed)) return setInvalid(true);
          setInvalid(false);
          set.mutate({ ...where, channel_id: trimmed, fleet_id: chosenFleet });
        }}
      >
        <TextField
          label="Channel id"
          hint="The provider's channel id, such as C0123ABCD."
          value={channel}
          error={invalid ? "A channel id is 1-64 letters, digits, _ or -." : null}
          onChange={(event) => {
            setChannel(event.target.value);
            setInvalid(false);
          }}
        />
        <SelectField label="Fleet" value={chosenFleet} onChange={(event) => setFleetId(event.target.value)}>
          {(fleets.data?.items ?? []).map((fleet) => (
            <option key={fleet.id} value={fleet.id}>
              {fleet.name}
            </option>
          ))}
        </SelectField>
        <Button type="submit" variant="primary" pending={set.isPending} disabled={chosenFleet === ""}>
          Route channel
        </Button>
      </form>
      <ActionProblem action={set} />
      <ActionProblem action={remove} />
    </div>
  );
}
