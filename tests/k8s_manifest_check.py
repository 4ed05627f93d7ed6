"""tests/test_k8s_manifest.sh's checks of packaging/kubernetes/uncore-exporter.yaml, offline: each object
against its API schema (packaging/kubernetes/schema/: Kubernetes 1.32 and prometheus-operator's
ServiceMonitor, strict: no field the API lacks), then what the manifest promises (least privilege, the
Pod Security Standards' baseline but for CAP_PERFMON) and that its objects select each other.
One line per check, "ok ..." or "bad ...": exit status 1 when any is bad.
    k8s_manifest_check.py MANIFEST SCHEMADIR"""
import json
import os
import sys

import jsonschema
import yaml

SCHEMAS = {("v1", "Namespace"): "namespace-v1.json", ("apps/v1", "DaemonSet"): "daemonset-apps-v1.json",
           ("v1", "Service"): "service-v1.json",
           ("networking.k8s.io/v1", "NetworkPolicy"): "networkpolicy-networking-v1.json", ("monitoring.coreos.com/v1", "ServiceMonitor"): "servicemonitor-monitoring-v1.json"}
# Pod Security Standards, baseline (kubernetes.io/docs/concepts/security/pod-security-standards): the
# capabilities a container may add, and the sysctls a pod may set
BASELINE_CAPS = {"AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE",
                 "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT"}
BASELINE_SYSCTLS = {"kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.ip_unprivileged_port_start",
                    "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_local_reserved_ports",
                    "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
                    "net.ipv4.tcp_keepalive_probes"}
BASELINE_SELINUX_TYPES = {None, "", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"}
bad = 0


def say(ok, what):
    global bad
    bad += not ok
    print(("ok " if ok else "bad ") + what)
    return ok


def schema_errors(obj, schemadir):
    key = (obj.get("apiVersion"), obj.get("kind"))
    if key not in SCHEMAS:
        return ["no schema for %s %s" % key]
    with open(os.path.join(schemadir, SCHEMAS[key])) as f:
        schema = json.load(f)
    v = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)(schema)
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)", e.message)
            for e in sorted(v.iter_errors(obj), key=lambda e: list(map(str, e.absolute_path)))]


def containers(pod):
    return pod.get("initContainers", []) + pod.get("containers", []) + pod.get("ephemeralContainers", [])


def baseline_violations(pod):
    """Every baseline control of the Pod Security Standards that the pod spec breaks."""
    v = []
    psc = pod.get("securityContext", {})
    for ns in ("hostNetwork", "hostPID", "hostIPC"):
        if pod.get(ns):
            v.append(ns)
    if psc.get("windowsOptions", {}).get("hostProcess"):
        v.append("hostProcess")
    v += ["hostPath volume " + vol["name"] for vol in pod.get("volumes", []) if "hostPath" in vol]
    v += ["sysctl " + s["name"] for s in psc.get("sysctls", []) if s["name"] not in BASELINE_SYSCTLS]
    for sc, where in [(psc, "pod")] + [(c.get("securityContext", {}), c["name"]) for c in containers(pod)]:
        if sc.get("seccompProfile", {}).get("type") == "Unconfined":
            v.append(where + ": seccomp Unconfined")
        if sc.get("appArmorProfile", {}).get("type") == "Unconfined":
            v.append(where + ": AppArmor Unconfined")
        se = sc.get("seLinuxOptions", {})
        if se.get("type") not in BASELINE_SELINUX_TYPES or se.get("user") or se.get("role"):
            v.append(where + ": seLinuxOptions")
    for c in containers(pod):
        sc = c.get("securityContext", {})
        if sc.get("privileged"):
            v.append(c["name"] + ": privileged")
        v += [c["name"] + ": capability " + a for a in sc.get("capabilities", {}).get("add", []) if a not in BASELINE_CAPS]
        if sc.get("procMount", "Default") != "Default":
            v.append(c["name"] + ": procMount")
        v += [c["name"] + ": hostPort %d" % p["hostPort"] for p in c.get("ports", []) if p.get("hostPort")]
    return v


def matches(selector, labels):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def main():
    manifest, schemadir = sys.argv[1], sys.argv[2]
    with open(manifest) as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    by_kind = {d["kind"]: d for d in docs}
    say(sorted(by_kind) == ["DaemonSet", "Namespace", "NetworkPolicy", "Service", "ServiceMonitor"],
        "the manifest holds a Namespace, a DaemonSet, a Service, a ServiceMonitor and a NetworkPolicy (%s)" % ", ".join(sorted(by_kind)))
    for d in docs:
        errs = schema_errors(d, schemadir)
        say(not errs, "%s %s against its API schema%s" % (d["kind"], d["metadata"]["name"],
                                                             (": " + "; ".join(errs[:5])) if errs else ""))
    ds, svc, sm, np = (by_kind.get(k) for k in ("DaemonSet", "Service", "ServiceMonitor", "NetworkPolicy"))
    if not (ds and svc and sm and np):
        return 1
    pod = ds["spec"]["template"]["spec"]
    psc = pod.get("securityContext", {})
    for c in containers(pod):
        sc = c.get("securityContext", {})
        caps = sc.get("capabilities", {})
        say(caps.get("drop") == ["ALL"] and caps.get("add") == ["PERFMON"],
            "%s: every capability dropped but PERFMON (drop %s, add %s)" % (c["name"], caps.get("drop"), caps.get("add")))
        say("privileged" not in sc or sc["privileged"] is False, "%s: not privileged" % c["name"])
        say(sc.get("allowPrivilegeEscalation") is False, "%s: no privilege escalation (no_new_privs)" % c["name"])
        say(sc.get("readOnlyRootFilesystem") is True, "%s: read-only root file system" % c["name"])
        nonroot = sc.get("runAsNonRoot", psc.get("runAsNonRoot"))
        uid = sc.get("runAsUser", psc.get("runAsUser"))
        say(nonroot is True and uid not in (None, 0), "%s: runs as a non-root user (runAsNonRoot %s, uid %s)" % (c["name"], nonroot, uid))
        say(not c.get("volumeMounts"), "%s: mounts nothing (the runtime's read-only /sys and /proc are what perf reads)" % c["name"])
    say(not pod.get("volumes"), "the pod has no volume, and so no host path")
    say(not any(pod.get(k) for k in ("hostNetwork", "hostPID", "hostIPC")), "no host namespace")
    say(psc.get("seccompProfile", {}).get("type") == "RuntimeDefault", "the runtime's default seccomp profile")
    say(pod.get("automountServiceAccountToken") is False, "no service account token")
    v = baseline_violations(pod)
    say(v == ["uncore-exporter: capability PERFMON"],
        "Pod Security Standards baseline: every control met but the capability PERFMON (%s)" % ("; ".join(v) or "none"))
    ns = by_kind["Namespace"]["metadata"]
    say(ns["labels"].get("pod-security.kubernetes.io/enforce") == "privileged" and
        all(d["metadata"].get("namespace") == ns["name"] for d in docs if d["kind"] != "Namespace"),
        "every object is in namespace %s, which admits the pod (enforce: privileged)" % ns["name"])
    tmpl = ds["spec"]["template"]["metadata"]["labels"]
    say(matches(ds["spec"]["selector"]["matchLabels"], tmpl), "the DaemonSet's selector matches its pods' labels")
    say(matches(svc["spec"]["selector"], tmpl), "the Service selects the exporter's pods")
    cports = {p["name"]: p["containerPort"] for c in pod["containers"] for p in c.get("ports", [])}
    say(all(p["targetPort"] in cports for p in svc["spec"]["ports"]), "the Service's targetPort names the container's port")
    say(matches(sm["spec"]["selector"]["matchLabels"], svc["metadata"]["labels"]), "the ServiceMonitor selects the Service")
    sports = {p["name"] for p in svc["spec"]["ports"]}
    say(all(e["port"] in sports for e in sm["spec"]["endpoints"]), "the ServiceMonitor's endpoints name the Service's port")
    say(matches(np["spec"]["podSelector"]["matchLabels"], tmpl) and np["spec"].get("egress") == [] and
        sorted(np["spec"]["policyTypes"]) == ["Egress", "Ingress"] and
        [p["port"] for r in np["spec"]["ingress"] for p in r["ports"]] == ["metrics"],
        "the NetworkPolicy lets in scrapes of the metrics port and nothing out")
    # doc/safety.md: only the monitoring namespace's Prometheus pods, each source naming a namespace and its
    # pods together (a rule without from, or a source of only one selector, lets in every pod or namespace)
    srcs = [(r, f) for r in np["spec"]["ingress"] for f in r.get("from", [None])]
    say(srcs and all(f and not f.get("ipBlock") and f.get("namespaceSelector", {}).get("matchLabels") and
                     f.get("podSelector", {}).get("matchLabels") for _, f in srcs),
        "the NetworkPolicy admits only pods a namespaceSelector and a podSelector name together (%s)"
        % "; ".join("from %s" % (f if f else "anywhere") for _, f in srcs))
    # --max-connections sized to the memory limit: the HTTP server's worst case (doc/safety.md) and 32 MiB
    # of the exporter's own within limits.memory
    c = pod["containers"][0]
    args = c.get("args", [])
    lim = c.get("resources", {}).get("limits", {}).get("memory", "")
    mib = int(lim[:-2]) if lim.endswith("Mi") else int(lim[:-2]) * 1024 if lim.endswith("Gi") else 0

    def need(args):
        """MiB at most: pool, state, with TLS its GnuTLS session (UE_TLS_CONN_BYTES), kernel buffers (KiB); 11
        responses of 150 kB"""
        conns = int(args[args.index("--max-connections") + 1]) if "--max-connections" in args else 4096
        return conns, 32 + (conns * (32 + 16 + (52 if "--web.config.file" in args else 0) + 20) + 11 * 150) / 1024

    conns, mb = need(args)
    say(mib and mb <= mib, "--max-connections %d needs %.0f MiB at most, within limits.memory %s" % (conns, mb, lim or "(none)"))
    # a TLS set-up's arguments, in the comment above args (issue 89: 1024 connections with TLS need 154 MiB)
    with open(manifest) as f:
        tls = [yaml.safe_load(line.split("with TLS, args:", 1)[1]) for line in f if "# " in line and "with TLS, args:" in line]
    targs = tls[0] if len(tls) == 1 and isinstance(tls[0], list) else []
    conns, mb = need(targs)
    say("--web.config.file" in targs and mb <= mib, "with TLS (the comment's args: %s) --max-connections %d needs %.0f MiB at "
        "most, within limits.memory %s" % (" ".join(targs) or "none given", conns, mb, lim or "(none)"))
    # for the shell test: the image and the arguments the exporter gets
    c = pod["containers"][0]
    print("image %s" % c["image"])
    print("args %s" % " ".join(c.get("args", [])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
