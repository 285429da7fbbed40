import type { ReactNode } from "react";
import { ThemeSwitch } from "./theme-switch.tsx";
import "./sign-in-card.css";

/** The branded card the signed-out pages (sign-in, a sign-in link's Continue) stand in, the theme switch under it. */
export function SignInCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="sign-in">
      <div className="sign-in__card">
        <div className="sign-in__brand">
          <span className="brand__mark" aria-hidden="true">
            F
          </span>
          <span className="brand__name">Fleet Control Plane</span>
        </div>
        <h1 className="sign-in__title">{title}</h1>
        {children}
      </div>
      <ThemeSwitch />
    </main>
  );
}
