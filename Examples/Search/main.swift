// Search as you type with `invoke`: each keystroke re-enters `searching`, which cancels the
// request of the previous keystroke, so a slow answer to an old query is never shown. A failed
// search retries by itself after a timeout.
//
//   swift run Search
import StateMachines

/// A pretend search service: slower for short queries, and failing once for "swift" (a flaky
/// network), so the retry shows.
actor SearchService {
  private static let catalog = ["swan", "swift", "swift-syntax", "swiftly", "switch", "sword"]
  private var failedOnce: Set<String> = []
  private(set) var requests: [String] = []

  func search(_ query: String) async throws -> [String] {
    requests.append(query)
    // Short queries are slow: an early keystroke's answer arrives after later ones.
    try await Task.sleep(for: .milliseconds(max(10, 200 - 40 * query.count)))
    if query == "swift", failedOnce.insert(query).inserted { throw SearchError.offline }
    return Self.catalog.filter { $0.hasPrefix(query) }
  }
}

enum SearchError: Error { case offline }

@MainActor
@StateMachine
final class SearchBox {
  static let retryDelay = Duration.milliseconds(100)
  let service = SearchService()
  var query = ""
  private(set) var results: [String] = []
  private(set) var shown: [String] = []

  static let stateMachine = StateMachineDefinition<SearchBox> { sm in
    sm.addState("empty")
    sm.addState("searching")
    sm.addState("showing")
    sm.addState("failed")

    // Every keystroke (re-)enters `searching`: an external self-transition restarts the search.
    sm.when("type", transitionFrom: ["empty", "searching", "showing", "failed"], to: "searching")
      .action { box, transition in box.query = transition.payload(as: String.self) ?? "" }
    sm.when("clear", transitionFrom: ["searching", "showing", "failed"], to: "empty")
    sm.when("retry", transitionFrom: "failed", to: "searching", after: SearchBox.retryDelay)

    sm.invoke("search", in: "searching", input: { box, _ in SearchRequest(query: box.query, service: box.service) }) {
      context in try await context.input.run()
    }
    sm.whenInvokeDone("search", transitionTo: "showing").action { box, transition in
      box.results = transition.payload(as: [String].self) ?? []
      box.shown.append("\(box.query) → \(box.results)")
    }
    sm.whenInvokeFailed("search", transitionTo: "failed")
  }
}

/// What the search's work needs from the box: read inside the step, never the box itself.
struct SearchRequest: Sendable {
  let query: String
  let service: SearchService

  func run() async throws -> [String] { try await service.search(query) }
}

@MainActor
func typeAhead() async {
  let box = SearchBox()
  print("typing \"s\", \"sw\", \"swi\" quickly: each keystroke cancels the previous search")
  for query in ["s", "sw", "swi"] {
    box.fire("type", payload: query)
    try? await Task.sleep(for: .milliseconds(20))
  }
  await box.waitForInvocations()
  print("  shown: \(box.shown)")
  print("  state: \(box.state); \(box.invocationStatistics)")
  print("  the service was asked for \(await box.service.requests), only the last answer is shown")

  print("typing \"swift\": the network fails once, the box retries after \(SearchBox.retryDelay)")
  box.fire("type", payload: "swift")
  await box.waitForInvocations()
  print("  state: \(box.state)")
  for await transition in box.stateTransitions {
    print("  \(transition.from) --\(transition.event)--> \(transition.to)")
    if transition.to == "showing" { break }
  }
  await box.waitForInvocations()
  print("  shown: \(box.shown.last ?? "nothing")")
  print("\nGraphviz DOT (render with `dot -Tsvg`):\n\(SearchBox.stateMachine.dotDiagram)")
}

await typeAhead()
