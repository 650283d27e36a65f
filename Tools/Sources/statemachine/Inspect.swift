import ArgumentParser
import Foundation
import StateMachines
import StateMachinesInspector

/// `statemachine inspect FILE`: serves the live inspector page for one machine of a definition
/// file, started, its guards passing, its actions doing nothing and its invoked work succeeding
/// at once (as `run`). Prints the URL to open on a line of its own and serves until interrupted.
struct Inspect: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve a live inspector page for a definition: watch its configuration and send it events in a browser.",
    discussion: """
      Prints the page's URL (with a per-run token after '#') on a line of its own, then serves \
      until interrupted. The server listens on 127.0.0.1 only, unless --allow-remote is given \
      with another --host (prefer an SSH port forward).
      """)

  @Argument(help: "A definition file (our JSON, TBStateMachine JSON or SCXML); or use --db and --machine.")
  var file: String?

  @Option(help: "A store's database (as for `statemachine store`): show its machines' rows instead of a file's machine.")
  var db: String?

  @Option(
    help:
      "With --db: the one machine whose rows to show; without it, every machine of the database and every application table its stores recorded."
  )
  var machine: String?

  @Option(help: "The TCP port; 0 picks a free one.")
  var port: UInt16 = 0

  @Option(help: "The address to listen on.")
  var host: String = "127.0.0.1"

  @Flag(help: "Allow a --host that is not a loopback address.")
  var allowRemote = false

  func validate() throws {
    guard (file == nil) == (db != nil) else { throw ValidationError("give either a definition FILE or --db") }
    guard db != nil || machine == nil else { throw ValidationError("--machine goes with --db") }
  }

  func run() async throws {
    if let db {
      try await runReporting {
        try await StoreBackends.with(db, create: false) { database in
          let machines = try await InspectStore.machines(of: database, named: self.machine)
          let inspector = try await start()
          for store in machines {
            inspector.attach(store: InspectStore(machine: store).view, definition: store.definition, name: store.name)
          }
          try await serve(inspector)
        }
      }
      return
    }
    let machine: DynamicStateMachine
    do {
      machine = DynamicStateMachine(try DefinitionFile(file ?? "").load())
      try machine.startStateMachine()
    } catch {
      printError("\(error)")
      throw ExitCode.failure
    }
    try await runReporting {
      let inspector = try await start()
      inspector.attach(machine, name: Self.chartName(file ?? ""))
      try await serve(inspector)
    }
    withExtendedLifetime(machine) {}
  }

  /// Starts the server (a warning when it listens beyond loopback).
  private func start() async throws -> Inspector {
    do {
      let inspector = try await Inspector.start(port: port, host: host, allowRemote: allowRemote)
      if allowRemote && !["127.0.0.1", "::1", "localhost"].contains(host) {
        printError("warning: listening on \(host): anyone who has the URL can drive the machine; an SSH port forward is safer")
      }
      return inspector
    } catch {
      throw ToolError("error: \(error)")
    }
  }

  /// Prints the URL on a line of its own, then serves until SIGINT or SIGTERM.
  private func serve(_ inspector: Inspector) async throws {
    // Written straight to the file descriptor: a script waiting for the line gets it at once.
    FileHandle.standardOutput.write(Data((inspector.url.absoluteString + "\n").utf8))
    await Self.waitForTermination()
    await inspector.stop()
  }

  /// The file's name without its extensions: `media-player.json` → `media-player`.
  static func chartName(_ path: String) -> String {
    let name = URL(fileURLWithPath: path).lastPathComponent
    return name.split(separator: ".").first.map(String.init) ?? name
  }

  /// Returns when the process gets SIGINT or SIGTERM.
  static func waitForTermination() async {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber)
      source.setEventHandler { continuation.yield() }
      source.resume()
      sources.append(source)
    }
    for await _ in stream { break }
    for source in sources { source.cancel() }
  }
}
