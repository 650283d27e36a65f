import Testing

@testable import StateMachines

/// The per-object storage keeps everything that sends an event off the fast path in one flags
/// byte; these tests pin that each flag follows what it stands for.
struct StorageFlagsTests {
  private func storage() -> StateMachineStorage { StateMachineStorage(FinalLamp.stateMachine) }

  @Test func aNewObjectTakesTheFastPath() {
    let storage = storage()
    #expect(storage.slowPathFlags == 0)
    #expect(!storage.isBusy)
    #expect(!storage.isTerminated)
    #expect(!storage.hasQueuedEvents)
  }

  @Test func busyAndTerminatedAreIndependentBits() {
    var storage = storage()
    storage.isBusy = true
    storage.isTerminated = true
    storage.isBusy = false
    #expect(storage.isTerminated)
    #expect(!storage.isBusy)
    #expect(storage.slowPathFlags != 0)
    storage.isTerminated = false
    #expect(storage.slowPathFlags == 0)
  }

  @Test func theQueuedBitFollowsTheQueue() {
    var storage = storage()
    storage.enqueue(QueuedEvent(event: 0, payload: nil, isOwn: true))
    storage.enqueue(QueuedEvent(event: 1, payload: "x", isOwn: true))
    #expect(storage.hasQueuedEvents)
    #expect(storage.dequeue()?.event == 0)
    #expect(storage.hasQueuedEvents)
    #expect(storage.dequeue()?.event == 1)
    #expect(!storage.hasQueuedEvents)
    #expect(storage.dequeue() == nil)
    #expect(storage.slowPathFlags == 0)
  }

  @Test func droppingQueuedEventsClearsTheBitOnlyWhenNoneIsLeft() {
    var storage = storage()
    storage.enqueue(QueuedEvent(event: 0, payload: nil, isOwn: true))
    storage.enqueue(QueuedEvent(event: 1, payload: nil, isOwn: true))
    #expect(storage.dropOwnQueued(after: 1) == 1)
    #expect(storage.queue.map(\.event) == [0])
    #expect(storage.hasQueuedEvents)
    #expect(storage.dropOwnQueued(after: 0) == 1)
    #expect(storage.queue.isEmpty)
    #expect(!storage.hasQueuedEvents)
  }

  @Test("an aborted step drops only the events it queued itself, not those other threads queued")
  func droppingKeepsOtherThreadsEvents() {
    var storage = storage()
    storage.enqueue(QueuedEvent(event: 0, payload: nil, isOwn: true))
    storage.enqueue(QueuedEvent(event: 1, payload: nil, isOwn: false))
    storage.enqueue(QueuedEvent(event: 2, payload: nil, isOwn: true))
    #expect(storage.dropOwnQueued(after: 0) == 2)
    #expect(storage.queue.map(\.event) == [1])
    #expect(storage.hasQueuedEvents)
  }

  @Test("the queue lives in the extras without moving the object off the fast path; the storage is 16 bytes")
  func queueKeepsTheFastPath() {
    var storage = storage()
    storage.enqueue(QueuedEvent(event: 0, payload: nil, isOwn: true))
    #expect(storage.extras != nil)
    #expect(storage.dequeue()?.event == 0)
    #expect(storage.slowPathFlags == 0)
    #expect(MemoryLayout<StateMachineStorage>.size <= 16)
  }

  @Test(.timeLimit(.minutes(1))) func anObjectWithAStreamLeavesTheFastPathAndStillTransitions() async {
    let lamp = FinalLamp()
    let stream = lamp.stateTransitions
    #expect(lamp._$stateMachineStorage.slowPathFlags != 0)
    #expect(lamp.switchOn())
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    #expect(first?.to == "on")
  }
}
