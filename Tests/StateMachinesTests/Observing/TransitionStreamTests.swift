import Foundation
import Testing

import StateMachines

@StateMachine
final class StreamedTicket {
  static let stateMachine = StateMachineDefinition<StreamedTicket> { sm in
    sm.addState("new")
    sm.addState("assigned")
    sm.addState("done")
    sm.when("assign", transitionFrom: "new", to: "assigned")
    sm.when("finish", transitionFrom: "assigned", to: "done")
  }
}

@Suite(.timeLimit(.minutes(1))) struct TransitionStreamTests {
  @Test func theStreamYieldsEveryTransitionInOrderAndNoRejection() async {
    let ticket = StreamedTicket()
    var iterator = ticket.stateTransitions.makeAsyncIterator()
    #expect(ticket.assign())
    #expect(!ticket.assign())
    #expect(ticket.finish())
    #expect(await iterator.next() == CompletedTransition(from: "new", event: "assign", to: "assigned"))
    #expect(await iterator.next() == CompletedTransition(from: "assigned", event: "finish", to: "done"))
  }

  @Test func theStreamEndsWhenTheObjectGoesAway() async {
    var ticket: StreamedTicket? = StreamedTicket()
    let stream = ticket!.stateTransitions
    ticket?.assign()
    ticket = nil
    var received: [CompletedTransition] = []
    for await transition in stream { received.append(transition) }
    #expect(received == [CompletedTransition(from: "new", event: "assign", to: "assigned")])
  }
}
