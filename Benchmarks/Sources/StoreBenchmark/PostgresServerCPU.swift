// What the PostgreSQL server spends, read from the operating system: the CPU time (user and
// system) of every process named `postgres` on this machine, the backends and the server's own
// workers alike. The benchmark runs next to its throwaway server, so every such process is that
// server's; a run divides the time spent inside its measured window by its events, which is the
// server's work per fire (Benchmarks/README.md, *Server CPU per fire*). Linux only (`/proc`),
// like the script that starts the server.

import Foundation

/// The CPU seconds all `postgres` processes have used so far, or `nil` where `/proc` is missing.
func postgresServerCPUSeconds() -> Double? {
  guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
  let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
  var ticks = 0
  for entry in entries where entry.first?.isNumber == true {
    // `pid (comm) state ppid …`: utime, stime, cutime and cstime are the 12th to 15th fields
    // after the comm; the last two hold the time of the children it reaped (a backend that ended
    // adds its time to the postmaster's).
    guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
      let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
      stat[stat.index(after: open)..<close] == "postgres"
    else { continue }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 14 else { continue }
    ticks += fields[11...14].compactMap { Int($0) }.reduce(0, +)
  }
  return Double(ticks) / ticksPerSecond
}
