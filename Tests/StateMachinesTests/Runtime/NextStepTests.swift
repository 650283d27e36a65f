import StateMachines
import Testing

// Entry actions that continue: an entry action may return a `NextStep`,
// processed as the next run-to-completion step once the current one completed.

/// `submit` enters `checking`, whose entry action asks for `approve` (when ``autoApprove``) with
/// the reviewer as payload; `approved` continues with `publish`. Callbacks write to ``log``.
@StateMachine
final class NextStepReview {
  var autoApprove = true
  var approvalAllowed = true
  var log: [String] = []

  static let stateMachine = StateMachineDefinition<NextStepReview> { sm in
    sm.addState("draft")
    sm.addState("checking")
    sm.addState("approved")
    sm.addState("published")
    sm.when("submit", transitionFrom: "draft", to: "checking")
    sm.when("approve", transitionFrom: "checking", to: "approved").guarded { $0.approvalAllowed }
    sm.when("publish", transitionFrom: "approved", to: "published")
    sm.onEntry("checking", then: { review, _ in
      review.log.append("entry checking")
      return review.autoApprove ? .fire("approve", payload: "bot") : nil
    })
    sm.onEntry("approved", then: { review, transition in
      review.log.append("entry approved by \(transition.payload(as: String.self) ?? "-")")
      return .fire("publish")
    })
    sm.onEntry("published") { $0.log.append("entry published") }
    for event in ["submit", "approve", "publish"] {
      sm.before(event) { review in review.log.append("before \(event) in \(review.state)") }
      sm.after(event) { review in review.log.append("after \(event) in \(review.state)") }
    }
    sm.didTransition { review, transition in
      review.log.append("observer \(transition.from)-\(transition.event)->\(transition.to)")
    }
  }
}

/// An entry action that asks for an event the machine does not have.
@StateMachine
final class NextStepTypo {
  var log: [String] = []

  static let stateMachine = StateMachineDefinition<NextStepTypo> { sm in
    sm.addState("draft")
    sm.addState("checking")
    sm.when("submit", transitionFrom: "draft", to: "checking")
    sm.onEntry("checking", then: { typo, _ in
      typo.log.append("entry checking")
      return .fire("aprove")
    })
    sm.after("submit") { $0.log.append("after submit") }
    sm.didTransition { typo, transition in typo.log.append("observer \(transition.event)") }
  }
}

/// Names from arrays, as a definition loaded at run time has them.
private let nextStepStates = ["a", "b", "c", "d"]
private let nextStepEvents = ["toB", "toC", "toD"]

/// A chain built at run time: each state's entry action fires the event that leaves it, until
/// the last state.
private func makeNextStepChain(_ probe: FlatTestProbe) throws(DefinitionError) -> DynamicStateMachine {
  try DynamicStateMachine(validating: { sm in
    for state in nextStepStates { sm.addState(state) }
    for (index, event) in nextStepEvents.enumerated() {
      sm.when(event, transitionFrom: nextStepStates[index], to: nextStepStates[index + 1])
    }
    for (index, state) in nextStepStates.enumerated().dropFirst() {
      sm.onEntry(state, then: { _, transition in
        probe.log.append("entry \(state) via \(transition.event)")
        return index < nextStepEvents.count ? .fire(nextStepEvents[index]) : nil
      })
    }
  })
}

@Suite("Entry actions that continue")
struct NextStepTests {
  @Test("the next step runs after the triggering step completed, in run-to-completion order")
  func nextStepRunsAfterStep() {
    let review = NextStepReview()
    #expect(review.submit())
    #expect(review.state == "published")
    #expect(
      review.log == [
        "before submit in draft",
        "entry checking",
        "after submit in checking",
        "observer draft-submit->checking",
        "before approve in checking",
        "entry approved by bot",
        "after approve in approved",
        "observer checking-approve->approved",
        "before publish in approved",
        "entry published",
        "after publish in published",
        "observer approved-publish->published",
      ])
  }

  @Test("fired by name and by fireOrThrow, the continuation runs too")
  func nextStepByName() {
    let byName = NextStepReview()
    #expect(byName.fire("submit"))
    #expect(byName.state == "published")

    let throwing = NextStepReview()
    #expect(stateMachineError { try throwing.fireOrThrow("submit") } == nil)
    #expect(throwing.state == "published")
  }

  @Test("an entry action returning nil stays")
  func noNextStep() {
    let review = NextStepReview()
    review.autoApprove = false
    #expect(review.submit())
    #expect(review.state == "checking")
    #expect(
      review.log == [
        "before submit in draft", "entry checking", "after submit in checking", "observer draft-submit->checking",
      ])
  }

  @Test("a next step that is rejected leaves the state of the triggering step")
  func rejectedNextStep() {
    let review = NextStepReview()
    review.approvalAllowed = false
    #expect(review.submit())
    #expect(review.state == "checking")
    #expect(!review.log.contains { $0.hasPrefix("before approve") })
    // The machine is idle again: the event can be fired once it is allowed.
    review.approvalAllowed = true
    #expect(review.approve(with: "human"))
    #expect(review.state == "published")
    #expect(review.log.contains("entry approved by human"))
  }

  @Test("an entry action asking for an unknown event fails the step after the transition")
  func unknownNextEvent() {
    let typo = NextStepTypo()
    let error = stateMachineError { try typo.fireOrThrow("submit") }
    #expect(error == .callbackFailed(event: "submit", transitionHappened: true))
    #expect(typo.state == "checking")
    // The after callback is skipped; observers are still told.
    #expect(typo.log == ["entry checking", "observer submit"])
  }

  @Test("the failure names the unknown event")
  func unknownNextEventUnderlying() {
    let typo = NextStepTypo()
    do {
      try typo.fireOrThrow("submit")
      Issue.record("fireOrThrow did not throw")
    } catch {
      guard case .callbackFailed(_, _, let underlying) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      let inner = (underlying as? StateMachineError).map(StateMachineErrorCase.init)
      #expect(inner == .unknownEvent("aprove"))
    }
  }

  @Test("the generated method reports the transition that happened despite the failure")
  func unknownNextEventGeneratedMethod() {
    let typo = NextStepTypo()
    #expect(typo.submit())
    #expect(typo.isChecking)
  }

  @Test("a chain of continuations in a definition built at run time runs to the end")
  func dynamicChain() throws {
    let probe = FlatTestProbe()
    let chain = try makeNextStepChain(probe)
    #expect(chain.fire("toB"))
    #expect(chain.isInState("d"))
    #expect(probe.log == ["entry b via toB", "entry c via toC", "entry d via toD"])
  }
}
