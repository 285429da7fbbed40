-- The outbox keys no foreign keys (see below).
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_events" DROP CONSTRAINT "webhook_events_workspace_id_workspaces_id_fk";
--> statement-breakpoint
-- Written by hand (drizzle-kit knows no triggers). The outbox's rows keep no foreign keys: a key's check on
-- every row an act writes (a shared lock on its endpoint's and workspace's rows) was a third of the outbox's
-- cost to the act. What the keys' cascades did, these do, once a statement: deleting a workspace deletes its
-- events, deleting an event or an endpoint deletes its deliveries (and, by their key, their attempts).
CREATE FUNCTION "webhook_workspace_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "webhook_events" e USING gone g WHERE e."workspace_id" = g."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_workspace_gone" AFTER DELETE ON "workspaces"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "webhook_workspace_gone"();--> statement-breakpoint
CREATE FUNCTION "webhook_event_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "webhook_deliveries" d USING gone g WHERE d."event_id" = g."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_event_gone" AFTER DELETE ON "webhook_events"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "webhook_event_gone"();--> statement-breakpoint
CREATE FUNCTION "webhook_endpoint_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "webhook_deliveries" d USING gone g WHERE d."endpoint_id" = g."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_endpoint_gone" AFTER DELETE ON "webhook_endpoints"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "webhook_endpoint_gone"();
