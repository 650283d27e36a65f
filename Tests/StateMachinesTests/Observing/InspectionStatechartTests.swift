import Foundation
import Testing

@testable import StateMachines

// Inspection records of statecharts (Inspecting B.7 item 1): exits and entries in
// the order the microstep runs them, the declared transitions taken, and the configuration with
// every active ancestor.

@Suite(.timeLimit(.minutes(1))) struct InspectionStatechartTests {
  /// A player that is off, or on with two regions; the video region remembers its state.
  static func definition() -> StateMachineDefinition<DynamicStateMachine> {
    StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("off")
      sm.addParallelState("on") { on in
        on.addState("audio") { audio in
          audio.addState("loud")
          audio.addState("muted")
        }
        on.addState("video") { video in
          video.addState("sd")
          video.addState("hd")
          video.addHistory("last", .shallow)
        }
      }
      sm.when("power", transitionFrom: "off", to: "on")
      sm.when("mute", transitionFrom: "loud", to: "muted")
      sm.when("hd", transitionFrom: "sd", to: "hd")
      sm.when("power", transitionFrom: "on", to: "off")
      sm.when("resume", transitionFrom: "off", to: "on/video/last")
    }
  }

  @Test("parallel regions and history: exact exits, entries, transitions and configurations")
  func parallelAndHistory() async {
    let definition = Self.definition()
    let document = definition.inspectionDocument
    #expect(
      document.states.map(\.path) == [
        "off", "on", "on/audio", "on/audio/loud", "on/audio/muted", "on/video", "on/video/sd", "on/video/hd",
        "on/video/last",
      ])
    #expect(document.states.map(\.kind) == [
      "atomic", "parallel", "compound", "atomic", "atomic", "compound", "atomic", "atomic", "history",
    ])
    #expect(document.states.map(\.parent) == [nil, nil, 1, 2, 2, 1, 5, 5, 5])
    #expect(document.states.filter(\.initial).map(\.path) == ["off"])
    #expect(document.transitions.map(\.event) == ["power", "mute", "hd", "power", "resume"])
    #expect(document.transitions.map(\.targets) == [[1], [4], [7], [0], [8]])

    let player = DynamicStateMachine(definition)
    var records = player.inspectionRecords().makeAsyncIterator()
    for event in ["power", "hd", "mute", "power", "resume", "mute", "mute"] { player.fire(event) }
    let got = await nextRecords(15, from: &records)
    #expect(got.map(\.sequence) == Array(1...15))
    let kinds: [InspectionRecord.Kind] = [
      .snapshot, .event, .step, .event, .step, .event, .step, .event, .step, .event, .step, .event, .step, .event,
      .rejected,
    ]
    #expect(got.map(\.kind) == kinds)
    // The snapshot starts the machine, as a query would.
    #expect(got[0].configuration == ["off"] && got[0].state == "off")

    let power = got[2]
    #expect(power.exited == ["off"])
    #expect(power.entered == ["on", "on/audio", "on/audio/loud", "on/video", "on/video/sd"])
    #expect(power.transitions == [0])
    #expect(power.configuration == ["on", "on/audio", "on/audio/loud", "on/video", "on/video/sd"])
    #expect(power.state == "on/audio/loud,on/video/sd")

    #expect(got[4].exited == ["on/video/sd"] && got[4].entered == ["on/video/hd"] && got[4].transitions == [2])
    #expect(got[6].exited == ["on/audio/loud"] && got[6].entered == ["on/audio/muted"] && got[6].transitions == [1])

    // Children first, later regions first.
    let off = got[8]
    #expect(off.exited == ["on/video/hd", "on/video", "on/audio/muted", "on/audio", "on"])
    #expect(off.entered == ["off"] && off.transitions == [3] && off.configuration == ["off"])

    // Back through the video region's history: hd again, the audio region by default.
    let resume = got[10]
    #expect(resume.transitions == [4])
    #expect(resume.entered == ["on", "on/audio", "on/audio/loud", "on/video", "on/video/hd"])
    #expect(resume.configuration == ["on", "on/audio", "on/audio/loud", "on/video", "on/video/hd"])

    #expect(got[12].exited == ["on/audio/loud"] && got[12].entered == ["on/audio/muted"])
    #expect(got[14].event == "mute")
    #expect(got[14].reason == StateMachineError.noTransition(event: "mute", state: "on/audio/muted,on/video/hd").description)
    #expect(got[14].state == "on/audio/muted,on/video/hd")
    // The inspected object took the full step and ended where an uninspected one ends.
    let twin = DynamicStateMachine(definition)
    for event in ["power", "hd", "mute", "power", "resume", "mute", "mute"] { twin.fire(event) }
    #expect(twin.activeStates == player.activeStates)
  }

  @Test("media-player.json, bound: the document's initial configuration, a history entry, a guard, a done event")
  func mediaPlayerFromJSON() async throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/Definitions/media-player.json")
    let tracks = TestRecorder()
    let player = try DynamicStateMachine(json: Data(contentsOf: url)) { bind in
      bind.guard("hasTrack") { _, _ in tracks["track"] > 0 }
      bind.action("spinUp") { _, _ in tracks.append("spinUp") }
      bind.action("advance") { _, _ in tracks.append("advance") }
    }
    let document = player.stateMachineDefinition.inspectionDocument
    #expect(document.states.filter(\.initial).map(\.path) == ["off"])
    #expect(document.events.contains("power") && document.events.contains("play"))
    var records = player.inspectionRecords().makeAsyncIterator()
    player.fire("power")
    player.fire("play")  // the guard refuses: no track
    tracks.increment("track")
    await #expect(player.send("play", source: .inspector).happened)
    player.fire("tick")
    player.fire("power")
    player.fire("split")
    let got = await nextRecords(15, from: &records)
    #expect(got.map(\.sequence) == Array(1...15))
    #expect(got[0].kind == .snapshot && got[0].configuration == ["off"])
    #expect(got[1].kind == .event && got[1].event == "power")
    // Into the shallow history of `on`, which has recorded nothing: `on`'s initial state.
    #expect(got[2].kind == .step && got[2].exited == ["off"] && got[2].entered == ["on", "on/stopped"])
    #expect(got[2].configuration == ["on", "on/stopped"])
    #expect(document.transitions[got[2].transitions[0]].event == "power")
    #expect(got[4].kind == .rejected)
    #expect(got[4].reason == StateMachineError.guardsFailed(event: "play", state: "on/stopped").description)
    #expect(got[5].source == .inspector && got[6].entered == ["on/playing"])
    // An internal transition: taken, no exit, no entry.
    #expect(got[8].kind == .step && got[8].exited.isEmpty && got[8].entered.isEmpty && got[8].transitions.count == 1)
    #expect(got[10].exited == ["on/playing", "on"])
    // A fork into both regions of `deck`, whose final states raise `done.state.deck` (source post).
    #expect(got[12].entered == ["deck", "deck/audio", "deck/audio/muted", "deck/video", "deck/video/hd"])
    #expect(got[13].kind == .event && got[13].source == .post)
    #expect(got[14].kind == .step && got[14].configuration == ["off"])
    #expect(tracks.lines == ["spinUp", "advance"])
  }

  @Test("a junction's chosen path and a completed join's edge are named with the transition that took them")
  func junctionAndJoinEdges() async throws {
    let definition = StateMachineDefinition<DynamicStateMachine> { sm in
      sm.addState("idle")
      sm.addState("fast")
      sm.addState("slow")
      sm.addParallelState("work") { work in
        work.addState("left") { $0.addState("l1") }
        work.addState("right") { $0.addState("r1") }
      }
      sm.addJoin("sync", to: "idle")
      sm.addJunction("route") { route in
        route.path(to: "fast", if: { _, transition in transition.payload(as: Bool.self) == true })
        route.otherwise(to: "slow")
      }
      sm.when("go", transitionFrom: "idle", to: "route")
      sm.when("work", transitionFrom: ["fast", "slow"], to: "work")
      sm.when("doneL", transitionFrom: "work/left/l1", to: "sync")
      sm.when("doneR", transitionFrom: "work/right/r1", to: "sync")
    }
    #expect(definition.definitionError == nil)
    let document = definition.inspectionDocument
    let index = { (path: String) in try #require(document.states.firstIndex { $0.path == path }) }
    // The declared transitions, then the join's edge, then the junction's paths in order.
    let edges = document.transitions.map { "\($0.index): \($0.source) -> \($0.targets) \($0.event ?? "-")" }
    let (idle, fast, slow, sync, route) = try (index("idle"), index("fast"), index("slow"), index("sync"), index("route"))
    let (l1, r1) = try (index("work/left/l1"), index("work/right/r1"))
    let work = try index("work")
    #expect(
      edges == [
        "0: \(idle) -> [\(route)] go", "1: \(fast) -> [\(work)] work", "2: \(slow) -> [\(work)] work",
        "3: \(l1) -> [\(sync)] doneL", "4: \(r1) -> [\(sync)] doneR", "5: \(sync) -> [\(idle)] -", "6: \(route) -> [\(fast)] -",
        "7: \(route) -> [\(slow)] -",
      ])
    // The DOT ids are the document's: edge t6 leaves the junction for `fast`.
    let dot = definition.dotDiagram(identifiers: true)
    #expect(dot.contains("id=\"t6\"") && dot.contains("id=\"t7\""))

    let machine = DynamicStateMachine(definition)
    var records = machine.inspectionRecords().makeAsyncIterator()
    machine.fire("go", payload: true)
    machine.fire("work")
    machine.fire("doneL")
    machine.fire("doneR")
    machine.fire("go", payload: false)
    let steps = await nextRecords(11, from: &records).filter { $0.kind == .step }
    #expect(steps.map(\.transitions) == [[0, 6], [1], [3], [4, 5], [0, 7]])
    #expect(steps.map(\.state) == ["fast", "work/left/l1,work/right/r1", "work/left/l1,work/right/r1", "idle", "slow"])
    // The join's arrival exits nothing; its completion leaves both regions.
    #expect(steps[2].exited.isEmpty && steps[2].entered.isEmpty)
    #expect(steps[3].exited.last == "work" && steps[3].entered == ["idle"])
  }
}
