#!/usr/bin/env bash
# How much debug compile time @StateMachine adds per annotated class (target: <= 50 ms).
#
# Generates N classes, each with a definition of 5 states, 6 events and 2 callbacks, and compiles
# them twice with the debug build's compiler flags: once with @StateMachine, once without it (the
# same definitions, typed for DynamicStateMachine, so the closures are type-checked alike). Prints
# the difference per class, the best of three runs each.
#
#   Benchmarks/macro-compile-time.sh [N]     (from anywhere; builds the package in debug first)
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-40}"
flags=(--disable-experimental-prebuilts)
swift build "${flags[@]}" --product StateMachines >/dev/null 2>&1 || swift build "${flags[@]}" >/dev/null
bin="$(swift build "${flags[@]}" --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

generate() {
  local annotated="$1" file="$2"
  {
    echo "import StateMachines"
    for index in $(seq 1 "$count"); do
      if [ "$annotated" = 1 ]; then
        echo "@StateMachine final class Machine$index {"
        echo "  var count = 0"
        echo "  static let stateMachine = StateMachineDefinition<Machine$index> { sm in"
      else
        echo "final class Machine$index {"
        echo "  var count = 0"
        echo "  static let stateMachine = StateMachineDefinition<DynamicStateMachine> { sm in"
      fi
      cat <<SWIFT
    sm.addState("idle")
    sm.addState("loading")
    sm.addState("ready")
    sm.addState("failed")
    sm.addState("closed")
    sm.when("load", transitionFrom: "idle", to: "loading")
    sm.when("finish", transitionFrom: "loading", to: "ready")
    sm.when("fail", transitionFrom: "loading", to: "failed")
    sm.when("retry", transitionFrom: "failed", to: "loading")
    sm.when("reset", transitionFrom: ["ready", "failed"], to: "idle")
    sm.when("close", transitionFrom: ["idle", "ready", "failed"], to: "closed")
    sm.before("load") { _ in }
    sm.after("finish") { _ in }
  }
}
SWIFT
    done
  } >"$file"
}

compile_ms() {
  local file="$1" best=""
  for _ in 1 2 3; do
    local start end elapsed
    start=$(date +%s%N)
    swiftc -c -Onone -parse-as-library -module-name MacroTiming "$file" -o "$work/out.o" \
      -I "$bin/Modules" \
      -Xcc "-fmodule-map-file=$bin/StateMachinesSupport.build/module.modulemap" \
      -Xcc -I -Xcc "Sources/StateMachinesSupport/include" \
      -load-plugin-executable "$bin/StateMachinesMacros-tool#StateMachinesMacros"
    end=$(date +%s%N)
    elapsed=$(((end - start) / 1000000))
    if [ -z "$best" ] || [ "$elapsed" -lt "$best" ]; then best="$elapsed"; fi
  done
  echo "$best"
}

generate 1 "$work/with.swift"
generate 0 "$work/without.swift"
with=$(compile_ms "$work/with.swift")
without=$(compile_ms "$work/without.swift")
per_class=$(awk -v a="$with" -v b="$without" -v n="$count" 'BEGIN { printf "%.1f", (a - b) / n }')
echo "$count classes: ${with} ms with @StateMachine, ${without} ms without (best of 3, debug)"
verdict=$(awk -v p="$per_class" 'BEGIN { print (p <= 50) ? "MET   " : "MISSED" }')
echo "$verdict macro adds <= 50 ms of debug compile time per class: ${per_class} ms/class"
