import { redirect } from "next/navigation";
import { LANDING_PATH } from "../lib/landing.ts";

export default function Home() {
  redirect(LANDING_PATH);
}
