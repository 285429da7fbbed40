import { openDatabase } from "@fleet/db";
import type { TestProject } from "vitest/node";

/** Creates a fresh database for this run on the PostgreSQL server, migrates it, and drops it afterwards. */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `fleet_test_${process.pid}_${Date.now()}`;
  // Creating and dropping a database may outlast a request's statement timeout on a busy machine.
  const admin = await openDatabase(serverUrl, { max: 1, statementTimeoutMs: 120_000 });
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase(url.toString(), { max: 1 });
  await handle.migrate();
  await handle.close();
  project.provide("postgresUrl", url.toString());
  return async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.close();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}
