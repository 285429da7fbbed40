import { describe, expect, it } from "vitest";
import { isPublicAddress, readBaseUrl } from "./public-address.ts";

/** Every spelling of a host the service must never call, as a base_url. */
const refusedUrls: [string, string][] = [
  ["http://api.example.com/v1", "plain http"],
  ["ftp://api.example.com/", "another scheme"],
  ["not a url", "not a URL"],
  ["https://user:pass@api.example.com/", "credentials in the URL"],
  ["https://localhost/", "localhost"],
  ["https://LOCALHOST./v1", "localhost, upper case with a trailing dot"],
  ["https://models.localhost/", "a .localhost name"],
  ["https://127.0.0.1/", "loopback"],
  ["https://127.0.0.1./", "loopback with a trailing dot"],
  ["https://127.255.255.254:8443/", "loopback, another address and a port"],
  ["http://2130706433/", "decimal loopback over http"],
  ["https://2130706433/", "decimal loopback"],
  ["https://0177.0.0.1/", "octal loopback"],
  ["https://0x7f.0.0.1/", "hex loopback"],
  ["https://0x7f000001/", "hex loopback, one number"],
  ["https://127.1/", "short loopback"],
  ["https://%31%32%37.0.0.1/", "percent-encoded loopback"],
  ["https://０x7f.1/", "full-width hex loopback"],
  ["https://0.0.0.0/", "unspecified"],
  ["https://0/", "unspecified, one number"],
  ["https://10.0.0.1/", "private 10/8"],
  ["https://172.16.0.1/", "private 172.16/12"],
  ["https://172.31.255.255/", "private 172.16/12, last address"],
  ["https://192.168.1.1/", "private 192.168/16"],
  ["https://169.254.169.254/latest/meta-data/", "link-local metadata service"],
  ["https://169.254.0.1/", "link-local"],
  ["https://100.64.0.1/", "carrier-grade NAT"],
  ["https://100.127.255.254/", "carrier-grade NAT, top"],
  ["https://192.0.0.8/", "IETF protocol assignments"],
  ["https://192.0.2.10/", "documentation (TEST-NET-1)"],
  ["https://198.51.100.7/", "documentation (TEST-NET-2)"],
  ["https://203.0.113.9/", "documentation (TEST-NET-3)"],
  ["https://198.18.0.1/", "benchmarking"],
  ["https://192.88.99.1/", "6to4 relay anycast"],
  ["https://224.0.0.1/", "multicast"],
  ["https://239.255.255.250/", "multicast (SSDP)"],
  ["https://240.0.0.1/", "reserved"],
  ["https://255.255.255.255/", "broadcast"],
  ["https://[::1]/", "IPv6 loopback"],
  ["https://[0:0:0:0:0:0:0:1]/", "IPv6 loopback, long form"],
  ["https://[::]/", "IPv6 unspecified"],
  ["https://[fe80::1]/", "IPv6 link-local"],
  ["https://[febf::1]/", "IPv6 link-local, top of the range"],
  ["https://[fec0::1]/", "IPv6 site-local (deprecated)"],
  ["https://[fc00::1]/", "unique local fc00::/7"],
  ["https://[fd12:3456:789a::1]/", "unique local fd00::/8"],
  ["https://[ff02::1]/", "IPv6 multicast"],
  ["https://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
  ["https://[::ffff:7f00:1]/", "IPv4-mapped loopback, hex"],
  ["https://[::ffff:10.0.0.1]/", "IPv4-mapped private"],
  ["https://[::ffff:169.254.169.254]/", "IPv4-mapped metadata service"],
  ["https://[::ffff:0.0.0.0]/", "IPv4-mapped unspecified"],
  ["https://[::127.0.0.1]/", "IPv4-compatible (deprecated)"],
  ["https://[::ffff:0:7f00:1]/", "IPv4-translated"],
  ["https://[64:ff9b::7f00:1]/", "NAT64 of loopback"],
  ["https://[64:ff9b:1::a00:1]/", "local-use NAT64"],
  ["https://[2002:7f00:1::1]/", "6to4 of loopback"],
  ["https://[2002:a9fe:a9fe::1]/", "6to4 of the metadata service"],
  ["https://[2001:db8::1]/", "IPv6 documentation"],
  ["https://[3fff::1]/", "IPv6 documentation (3fff::/20)"],
  ["https://[2001::1]/", "Teredo"],
  ["https://[100::1]/", "discard-only"],
];

/** Public hosts, and names left to resolution. */
const acceptedUrls: [string, string, boolean][] = [
  ["https://8.8.8.8/", "8.8.8.8", true],
  ["https://1.1.1.1:8443/v1", "1.1.1.1", true],
  ["https://100.128.0.1/", "100.128.0.1", true],
  ["https://172.32.0.1/", "172.32.0.1", true],
  ["https://[2606:4700:4700::1111]/v1", "2606:4700:4700::1111", true],
  ["https://[2001:4860:4860::8888]/", "2001:4860:4860::8888", true],
  ["https://[::ffff:8.8.8.8]/", "::ffff:808:808", true],
  ["https://[2002:808:808::1]/", "2002:808:808::1", true],
  ["https://api.example.com/v1", "api.example.com", false],
  ["https://API.Example.com./v1", "api.example.com", false],
];

describe("readBaseUrl", () => {
  it.each(refusedUrls)("refuses %s (%s)", (raw) => {
    expect(readBaseUrl(raw).ok).toBe(false);
  });

  it.each(acceptedUrls)("accepts %s", (raw, host, literal) => {
    expect(readBaseUrl(raw)).toMatchObject({ ok: true, host, literal });
  });

  it("gives the canonical form", () => {
    expect(readBaseUrl("https://API.example.com")).toMatchObject({ href: "https://api.example.com/" });
  });
});

/** Addresses as a resolver returns them. */
const addresses: [string, boolean][] = [
  ["8.8.8.8", true],
  ["93.184.215.14", true],
  ["2606:4700::6810:84e5", true],
  ["::ffff:8.8.4.4", true],
  ["127.0.0.1", false],
  ["10.1.2.3", false],
  ["172.20.0.5", false],
  ["192.168.0.1", false],
  ["169.254.169.254", false],
  ["100.64.1.1", false],
  ["0.0.0.0", false],
  ["224.0.0.251", false],
  ["::1", false],
  ["::", false],
  ["fe80::1%eth0", false],
  ["fd00::1", false],
  ["::ffff:127.0.0.1", false],
  ["::ffff:192.168.1.1", false],
  ["64:ff9b::a9fe:a9fe", false],
  // Not canonical addresses: refused, never guessed at.
  ["0177.0.0.1", false],
  ["127.1", false],
  ["2130706433", false],
  ["0x7f000001", false],
  ["127.0.0.1%1", false],
  ["example.com", false],
  ["", false],
];

describe("isPublicAddress", () => {
  it.each(addresses)("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
