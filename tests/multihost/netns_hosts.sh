#!/usr/bin/env bash
# Simulated hosts for multi-host tests: network namespaces <prefix>-h1..hN on one private /24,
# joined by a bridge that lives in a namespace of its own (<prefix>-sw), so nothing outside the
# namespaces this script makes ever sees their traffic. Root only.
#   netns_hosts.sh up PREFIX N SUBNET     e.g. up weft123 3 10.213.7   (h1 = SUBNET.1, ...)
#   netns_hosts.sh down PREFIX            removes every namespace named PREFIX-*
#   netns_hosts.sh agent PREFIX           the --launch-agent string for weftrun
#   netns_hosts.sh run PREFIX HOST CMD... runs CMD on HOST (its own hostname, HOST)
set -euo pipefail

case "${1:-}" in
  up)
    prefix=$2 n=$3 subnet=$4
    ip netns add "$prefix-sw"
    ip -n "$prefix-sw" link add br0 type bridge
    ip -n "$prefix-sw" link set br0 up
    ip -n "$prefix-sw" link set lo up
    for i in $(seq 1 "$n"); do
      host="$prefix-h$i"
      ip netns add "$host"
      ip -n "$host" link set lo up
      ip link add "w${prefix: -6}h$i" type veth peer name eth0 netns "$host"
      ip link set "w${prefix: -6}h$i" netns "$prefix-sw"
      ip -n "$prefix-sw" link set "w${prefix: -6}h$i" master br0 up
      ip -n "$host" addr add "$subnet.$i/24" dev eth0
      ip -n "$host" link set eth0 up
    done ;;
  down)
    prefix=$2
    for ns in $(ip netns list | awk '{print $1}' | grep -E "^$prefix-(sw|h[0-9]+)$" || true); do
      # Processes left in a namespace would keep it alive: end them first (only ours are there).
      for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
      ip netns del "$ns"
    done ;;
  agent)
    echo "ip netns exec $2-{host} unshare --uts sh -c 'hostname {host}; exec \"\$0\" \"\$@\"'" ;;
  run)
    prefix=$2 host=$3; shift 3
    exec ip netns exec "$prefix-$host" unshare --uts sh -c 'hostname "$0"; exec "$@"' "$host" "$@" ;;
  *)
    echo "usage: $0 up PREFIX N SUBNET | down PREFIX | agent PREFIX | run PREFIX HOST CMD..." >&2
    exit 2 ;;
esac
