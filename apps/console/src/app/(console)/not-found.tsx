import { NotFoundBody } from "../../components/not-found-body.tsx";

export const metadata = { title: "Page not found" };

/** A page, fleet or record that does not exist (or is another tenant's): say so inside the shell. */
export default function ConsoleNotFound() {
  return <NotFoundBody />;
}
