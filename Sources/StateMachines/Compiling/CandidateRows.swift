/// Where the candidate transitions of each (state, event) pair are, for the full step: per state,
/// the events that have transitions from it, sorted, each with its range in the candidate list.
///
/// Sparse, so a wide definition (a chain of 10,000 states and events) costs memory in proportion
/// to its transitions, not to states × events; a lookup is a binary search in one state's row,
/// which holds only that state's events.
@usableFromInline
struct CandidateRows: Sendable {
  /// Row `s` is `events[rowStarts[s] ..< rowStarts[s + 1]]`.
  @usableFromInline let rowStarts: [Int32]
  /// The events of each row, ascending.
  @usableFromInline let events: [Int32]
  /// The candidates of entry `i` are `candidates[candidateStarts[i] ..< candidateStarts[i + 1]]`.
  @usableFromInline let candidateStarts: [Int32]

  init(rowStarts: [Int32], events: [Int32], candidateStarts: [Int32]) {
    // What lets ``range(state:event:)`` read without bounds checks, checked once here: the rows
    // start at 0, ascend and end at the last event, and every event has its candidates' start and
    // end. (The compiler builds them so; a violation is a bug of the library, not bad input.)
    precondition(
      rowStarts.first == 0 && rowStarts.last == Int32(events.count)
        && zip(rowStarts, rowStarts.dropFirst()).allSatisfy { $0 <= $1 }
        && candidateStarts.count == events.count + 1,
      "inconsistent candidate rows")
    self.rowStarts = rowStarts
    self.events = events
    self.candidateStarts = candidateStarts
  }

  /// No transitions at all (`states` rows).
  init(emptyWith states: Int) {
    self.init(rowStarts: Array(repeating: 0, count: states + 1), events: [], candidateStarts: [0])
  }

  /// The range of the candidates of (`state`, `event`) in the candidate list; empty if none.
  /// Inlined into the step: a call would cost more than its search.
  @inlinable @inline(__always)
  func range(state: Int32, event: Int32) -> Range<Int> {
    guard state >= 0, Int(state) + 1 < rowStarts.count else { return 0..<0 }
    // In bounds by the checks of `init` and the one above: read unchecked (Benchmarks/README.md,
    // "Candidate rows read unchecked").
    let (low, rowEnd) = rowStarts.withUnsafeBufferPointer {
      (Int($0[Int(state)]), Int($0[Int(state) &+ 1]))
    }
    return events.withUnsafeBufferPointer { events in
      var low = low
      var high = rowEnd
      while low < high {
        let middle = (low &+ high) >> 1
        if events[middle] < event { low = middle &+ 1 } else { high = middle }
      }
      guard low < rowEnd, events[low] == event else { return 0..<0 }
      return candidateStarts.withUnsafeBufferPointer { Int($0[low])..<Int($0[low &+ 1]) }
    }
  }
}
