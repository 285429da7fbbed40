import type { Metadata } from "next";
import { DeviceView } from "../../../features/sessions/device-view.tsx";

export const metadata: Metadata = { title: "Approve a command-line sign-in" };

type Search = Record<string, string | string[] | undefined>;

/**
 * The verification page of the command-line sign-in (`fleetctl login`). The code the terminal shows
 * arrives in the URL (`?code=`) when the person followed the printed link; typed, it is put there too.
 */
export default async function DevicePage({ searchParams }: { searchParams: Promise<Search> }) {
  const code = (await searchParams).code;
  return <DeviceView code={(Array.isArray(code) ? code[0] : code)?.slice(0, 32) ?? ""} />;
}
