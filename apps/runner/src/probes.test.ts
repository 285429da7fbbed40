import { join } from "node:path";
import { capabilityReport } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import {
  findOnPath,
  probeBubblewrap,
  probeCapabilities,
  probeCgroupControllers,
  probeEgressEnforcement,
  probeLandlock,
  probeSeccomp,
} from "./probes.ts";

const fixtures = join(import.meta.dirname, "..", "test", "fixtures");
const host = (name: string) => ({ root: join(fixtures, "hosts", name), path: "" });
const bin = (name: string) => join(fixtures, "bin", name);

describe("capability probes against fixture hosts", () => {
  it("landlock: listed among the active security modules", () => {
    expect(probeLandlock(host("hardened"))).toBe(true);
    expect(probeLandlock(host("bare"))).toBe(false);
    expect(probeLandlock(host("missing"))).toBe(false);
  });

  it("seccomp: the Seccomp field of /proc/self/status, or the seccomp sysctl directory", () => {
    expect(probeSeccomp(host("hardened"))).toBe(true);
    expect(probeSeccomp(host("seccomp-sysctl-only"))).toBe(true);
    expect(probeSeccomp(host("bare"))).toBe(false);
  });

  it("cgroup controllers: the v2 root's list, empty without one", () => {
    expect(probeCgroupControllers(host("hardened"))).toEqual([
      "cpuset",
      "cpu",
      "io",
      "memory",
      "hugetlb",
      "pids",
      "rdma",
      "misc",
    ]);
    expect(probeCgroupControllers(host("bare"))).toEqual([]);
  });

  it("bubblewrap: on PATH and able to start a sandbox", async () => {
    expect(await probeBubblewrap({ root: "/", path: bin("working") })).toBe(true);
    expect(await probeBubblewrap({ root: "/", path: bin("failing") })).toBe(false);
    expect(await probeBubblewrap({ root: "/", path: bin("not-executable") })).toBe(false);
    expect(await probeBubblewrap({ root: "/", path: "" })).toBe(false);
    expect(findOnPath("bwrap", [bin("not-executable"), bin("failing"), bin("working")].join(":"))).toBe(
      join(bin("failing"), "bwrap"),
    );
  });

  it("egress enforcement is never claimed: the reference runner does not filter traffic", () => {
    expect(probeEgressEnforcement()).toBe(false);
  });

  it("the whole report, in the contract's shape", async () => {
    const report = await probeCapabilities({ root: host("hardened").root, path: bin("working") });
    expect(capabilityReport.parse(report)).toEqual(report);
    expect(report).toEqual({
      landlock: true,
      seccomp: true,
      cgroup_controllers: ["cpuset", "cpu", "io", "memory", "hugetlb", "pids", "rdma", "misc"],
      bubblewrap: true,
      egress_enforcement: false,
    });
    expect(await probeCapabilities({ root: host("bare").root, path: bin("failing") })).toEqual({
      landlock: false,
      seccomp: false,
      cgroup_controllers: [],
      bubblewrap: false,
      egress_enforcement: false,
    });
  });
});
