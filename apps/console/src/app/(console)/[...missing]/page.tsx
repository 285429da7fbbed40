import { notFound } from "next/navigation";

/**
 * Any URL no page claims lands here, inside the signed-in shell, so the styled not-found below (with the
 * navigation) answers it rather than the framework's bare 404. Static routes always win over this one.
 */
export default function Missing() {
  notFound();
}
