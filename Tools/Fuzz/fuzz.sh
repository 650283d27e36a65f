#!/usr/bin/env bash
# Builds and runs the libFuzzer harnesses (Hierarchy §9.3): the JSON loader, the TBStateMachine
# loader, the SCXML import, and every entry point that takes a name (Semantics §Names), each
# instrumented with libFuzzer and AddressSanitizer.
#
#   Tools/Fuzz/fuzz.sh build                 # build the four harnesses into .build-fuzz/
#   Tools/Fuzz/fuzz.sh run json 60           # run one harness (json | tb | scxml | names) for 60 seconds
#   Tools/Fuzz/fuzz.sh all 60                # build, then run each for 60 seconds, two at a time
#
# A run starts from the seed corpus (Tools/Fuzz/Seeds/<harness>) and keeps what it finds in
# .build-fuzz/corpus/<harness>; a harness with a dictionary (Tools/Fuzz/Dictionaries/<harness>.dict)
# gets it as -dict. A crash or a hang over one second fails the run and leaves its input in
# .build-fuzz/artifacts/; make it a regression test.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
out="$root/.build-fuzz"
# lld links the sanitizer runtimes without gold's warnings about their local symbols.
flags=(-sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -g -use-ld=lld -package-name StateMachines)

build() {
  mkdir -p "$out/modules" "$out/bin" "$out/support"
  # The C support module, with a module map for Swift.
  clang -c -O1 -g -fsanitize=fuzzer-no-link,address "$root/Sources/StateMachinesSupport/StateMachinesSupport.c" \
    -I "$root/Sources/StateMachinesSupport/include" -o "$out/support/StateMachinesSupport.o"
  cat > "$out/support/module.modulemap" <<MAP
module StateMachinesSupport {
  header "$root/Sources/StateMachinesSupport/include/StateMachinesSupport.h"
  export *
}
MAP
  # The @StateMachine macro's declaration needs the compiler plugin, which the harnesses do not
  # use: it stays out, and so does its warning.
  # The names model comes first: StateMachines and StateMachinesSCXML import it.
  mapfile -t names < <(find "$root/Sources/StateMachinesNames" -name '*.swift' | sort)
  swiftc "${flags[@]}" -module-name StateMachinesNames -emit-library -static -emit-module \
    -emit-module-path "$out/modules/StateMachinesNames.swiftmodule" \
    "${names[@]}" -o "$out/modules/libStateMachinesNames.a"
  mapfile -t library < <(find "$root/Sources/StateMachines" -name '*.swift' ! -name 'StateMachineMacro.swift' | sort)
  swiftc "${flags[@]}" -module-name StateMachines -emit-library -static -emit-module \
    -emit-module-path "$out/modules/StateMachines.swiftmodule" -I "$out/modules" -I "$out/support" \
    "${library[@]}" -o "$out/modules/libStateMachines.a"
  mapfile -t scxml < <(find "$root/Sources/StateMachinesSCXML" -name '*.swift' | sort)
  swiftc "${flags[@]}" -module-name StateMachinesSCXML -emit-library -static -emit-module \
    -emit-module-path "$out/modules/StateMachinesSCXML.swiftmodule" -I "$out/modules" -I "$out/support" \
    "${scxml[@]}" -o "$out/modules/libStateMachinesSCXML.a"
  for harness in json:JSONLoader tb:TBLoader scxml:SCXMLImport names:NameEntryPoints; do
    name=${harness%%:*}
    # A harness's own helpers, if it has any, are in a folder named as its file.
    mapfile -t helpers < <(find "$root/Tools/Fuzz/Harnesses/${harness#*:}" -name '*.swift' 2>/dev/null | sort)
    swiftc "${flags[@]}" -I "$out/modules" -I "$out/support" \
      "$root/Tools/Fuzz/Harnesses/${harness#*:}.swift" "${helpers[@]}" "$root/Tools/Fuzz/Harnesses/FuzzDriver.swift" \
      "$out/modules/libStateMachinesSCXML.a" "$out/modules/libStateMachines.a" "$out/modules/libStateMachinesNames.a" \
      "$out/support/StateMachinesSupport.o" \
      -lFoundationXML -o "$out/bin/fuzz-$name"
  done
}

run() {
  local name=$1 seconds=$2
  mkdir -p "$out/corpus/$name" "$out/artifacts"
  # FoundationXML leaks a CFError for every malformed document (see lsan.supp). To libFuzzer every
  # such input then looks leaky and gets a full leak scan, which slowed the SCXML harness to 20
  # executions a second; it runs without leak detection (the JSON and TB harnesses keep it, over
  # the same runtime), in chunks of at most five minutes so that the leaked errors stay within
  # the memory limit.
  local leaks=1 chunk=$seconds
  if [ "$name" = scxml ]; then leaks=0; chunk=300; fi
  while [ "$seconds" -gt 0 ]; do
    local this=$(( seconds < chunk ? seconds : chunk ))
    run_once "$name" "$this" "$leaks"
    seconds=$(( seconds - this ))
  done
}

run_once() {
  local name=$1 seconds=$2 leaks=$3
  # FUZZ_JOB names a second process on the same harness: its own log and artifacts, the same corpus.
  local job=$name${FUZZ_JOB:+-$FUZZ_JOB}
  local dict=()
  if [ -f "$root/Tools/Fuzz/Dictionaries/$name.dict" ]; then dict=(-dict="$root/Tools/Fuzz/Dictionaries/$name.dict"); fi
  LSAN_OPTIONS="suppressions=$root/Tools/Fuzz/lsan.supp:print_suppressions=0" \
    "$out/bin/fuzz-$name" "$out/corpus/$name" "$root/Tools/Fuzz/Seeds/$name" \
    -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -max_len=65536 -detect_leaks="$leaks" \
    -artifact_prefix="$out/artifacts/$job-" -print_final_stats=1 "${dict[@]}" 2>&1 | tee -a "$out/$job.log" | grep -E "^#|Done|ERROR|stat::" | tail -4 | sed "s/^/[$job] /"
  test "${PIPESTATUS[0]}" -eq 0
}

case "${1:-all}" in
  build) build ;;
  run) run "$2" "${3:-60}" ;;
  all)
    build
    # Two harnesses at a time, one per core (CI's machine has two): each still runs its full time.
    failed=0
    for pair in "json tb" "scxml names"; do
      pids=()
      for name in $pair; do
        run "$name" "${2:-60}" &
        pids+=($!)
      done
      for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    done
    exit $failed
    ;;
  *) echo "usage: $0 build | run json|tb|scxml|names SECONDS | all SECONDS" >&2; exit 2 ;;
esac
