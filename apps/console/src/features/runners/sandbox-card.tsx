import { Badge, type BadgeTone } from "@fleet/ui";
import { DegradedBadge } from "./runner-badges.tsx";
import { networkLabels, type RunnerView, tierLabels, tierMeaning } from "./status.ts";
import "../../styles/card-parts.css";
import "../../styles/inline.css";
import "../../styles/requirements.css";
import "./sandbox-card.css";

type Policy = NonNullable<RunnerView["assigned_policy"]>;
type Report = NonNullable<RunnerView["achievable"]>;

interface Mechanism {
  name: string;
  /** Whether the assigned policy needs it (the API's degraded rules, restated to explain them). */
  needed: (policy: Policy) => boolean;
  /** Whether the host reports it. */
  has: (report: Report) => boolean;
}

const cgroup = (controller: string): Mechanism => ({
  name: `cgroup controller ${controller}`,
  needed: (policy) => policy.sandbox_tier === "container_nested",
  has: (report) => report.cgroup_controllers.includes(controller),
});

const mechanisms: Mechanism[] = [
  { name: "Landlock", needed: (p) => p.sandbox_tier === "landlock_full", has: (r) => r.landlock },
  { name: "seccomp", needed: (p) => p.sandbox_tier === "landlock_full", has: (r) => r.seccomp },
  { name: "bubblewrap", needed: (p) => p.sandbox_tier === "container_nested", has: (r) => r.bubblewrap },
  cgroup("cpu"),
  cgroup("memory"),
  cgroup("pids"),
  {
    name: "Egress enforcement",
    needed: (p) => p.network_policy !== "allow_all",
    has: (r) => r.egress_enforcement,
  },
];

function verdict(needed: boolean, has: boolean | null): { label: string; tone: BadgeTone } {
  if (has === null)
    return needed ? { label: "Not reported", tone: "warning" } : { label: "—", tone: "neutral" };
  if (needed) return has ? { label: "Enforced", tone: "success" } : { label: "Missing", tone: "danger" };
  return has ? { label: "Available", tone: "neutral" } : { label: "Not needed", tone: "neutral" };
}

/**
 * What the operator assigned beside what the host says it can enforce, mechanism by mechanism. The API's
 * degraded verdict is the judge; the table shows where it comes from.
 */
export function SandboxCard({ runner }: { runner: RunnerView }) {
  const policy = runner.assigned_policy;
  const report = runner.achievable;
  return (
    <section className="card" aria-labelledby="sandbox-heading">
      <header className="card__header">
        <h2 id="sandbox-heading" className="card__title">
          Sandbox
        </h2>
        <DegradedBadge runner={runner} />
      </header>
      <div className="sandbox">
        {policy === null ? (
          <p className="muted">
            No policy is assigned: the runner is degraded and leases no work until one is.
          </p>
        ) : (
          <dl className="requirements">
            <div>
              <dt>Tier</dt>
              <dd>
                <strong>{tierLabels[policy.sandbox_tier]}</strong>{" "}
                <code className="chip">{policy.sandbox_tier}</code>
                <span className="sandbox__meaning">{tierMeaning[policy.sandbox_tier]}</span>
              </dd>
            </div>
            <div>
              <dt>Network</dt>
              <dd>{networkLabels[policy.network_policy]}</dd>
            </div>
            <div>
              <dt>Registries</dt>
              <dd>
                {policy.registry_allowlist.length === 0 ? (
                  <span className="muted">None listed</span>
                ) : (
                  policy.registry_allowlist.map((registry) => (
                    <code key={registry} className="chip">
                      {registry}
                    </code>
                  ))
                )}
              </dd>
            </div>
            <div>
              <dt>Workers</dt>
              <dd>{policy.worker_count}</dd>
            </div>
          </dl>
        )}
        <section
          className="ui-table-scroll"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: on a phone the table scrolls sideways, and a keyboard must reach it
          tabIndex={0}
          aria-label="Sandbox mechanisms, assigned versus achievable"
        >
          <table className="ui-table mechanisms">
            <caption className="sandbox__caption">
              Assigned versus achievable{" "}
              <span className="muted">
                {report === null ? "(the host has not reported yet)" : "(from the host's last heartbeat)"}
              </span>
            </caption>
            <thead>
              <tr>
                <th scope="col">Mechanism</th>
                <th scope="col">Policy</th>
                <th scope="col">Host</th>
                <th scope="col">Verdict</th>
              </tr>
            </thead>
            <tbody>
              {mechanisms.map((mechanism) => {
                const needed = policy !== null && mechanism.needed(policy);
                const has = report === null ? null : mechanism.has(report);
                const result = verdict(needed, has);
                return (
                  <tr key={mechanism.name} data-mechanism={mechanism.name} data-verdict={result.label}>
                    <th scope="row" className="ui-table__row-header">
                      {mechanism.name}
                    </th>
                    <td>{needed ? "Required" : <span className="muted">Not required</span>}</td>
                    <td>
                      {has === null ? (
                        <span className="muted">Unknown</span>
                      ) : has ? (
                        "Reports it"
                      ) : (
                        <span className="muted">Does not report it</span>
                      )}
                    </td>
                    <td>
                      {needed || has === null ? (
                        result.label === "—" ? (
                          <span className="muted">—</span>
                        ) : (
                          <Badge tone={result.tone}>{result.label}</Badge>
                        )
                      ) : (
                        <span className="muted">{result.label}</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      </div>
    </section>
  );
}
