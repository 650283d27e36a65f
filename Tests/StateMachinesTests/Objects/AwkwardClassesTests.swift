import StateMachines
import Testing

// `@StateMachine` on classes of every shape: each must compile without warnings and behave.

// MARK: - Final and non-final classes

/// A plain final class.
@StateMachine
final class FinalLamp {
  static let stateMachine = StateMachineDefinition<FinalLamp> { sm in
    sm.addState("off")
    sm.addState("on")
    sm.when("switchOn", transitionFrom: "off", to: "on")
    sm.when("switchOff", transitionFrom: "on", to: "off")
  }
}

/// Events named like states (`open` the event, `open` the state): `open()` and `isOpen` live
/// side by side, and both IDs in the one generated IDs struct.
@StateMachine
final class Hatch {
  var unlocked = false

  static let stateMachine = StateMachineDefinition<Hatch> { sm in
    sm.addState("closed")
    sm.addState("open")
    sm.when("open", transitionFrom: "closed", to: "open").guarded { $0.unlocked }
    sm.when("closed", transitionFrom: "open", to: "closed")
  }
}

/// A non-final class whose callback calls an overridable method.
@StateMachine
class Door {
  var log: [String] = []

  func didOpen() { log.append("door opened") }

  static let stateMachine = StateMachineDefinition<Door> { sm in
    sm.addState("closed")
    sm.addState("open")
    sm.when("open", transitionFrom: "closed", to: "open")
    sm.when("close", transitionFrom: "open", to: "closed")
    sm.after("open") { $0.didOpen() }
  }
}

/// A subclass: it uses the machine of `Door` and overrides what a callback calls.
final class SlidingDoor: Door {
  let width: Int

  init(width: Int) {
    self.width = width
    super.init()
  }

  override func didOpen() { log.append("sliding door opened, width \(width)") }
}

// MARK: - Access levels and initializers

/// A public class: its generated members are public.
@StateMachine
public final class PublicGate {
  public init() {}

  public static let stateMachine = StateMachineDefinition<PublicGate> { sm in
    sm.addState("shut")
    sm.addState("ajar")
    sm.when("unlatch", transitionFrom: "shut", to: "ajar")
  }
}

/// Designated and convenience initializers, and a failable one.
@StateMachine
final class Ticket {
  let number: Int
  let title: String

  init(number: Int, title: String) {
    self.number = number
    self.title = title
  }

  convenience init(number: Int) {
    self.init(number: number, title: "untitled")
  }

  convenience init() {
    self.init(number: 0)
  }

  convenience init?(parsing text: String) {
    guard let number = Int(text) else { return nil }
    self.init(number: number)
  }

  static let stateMachine = StateMachineDefinition<Ticket> { sm in
    sm.initialState = "new"
    sm.addState("new")
    sm.addState("triaged")
    sm.when("triage", transitionFrom: "new", to: "triaged")
  }
}

/// A non-final class with a required initializer, subclassed with its own designated one.
@StateMachine
class Shape {
  let sides: Int

  required init(sides: Int) {
    self.sides = sides
  }

  convenience init() {
    self.init(sides: 3)
  }

  static let stateMachine = StateMachineDefinition<Shape> { sm in
    sm.addState("sketched")
    sm.addState("drawn")
    sm.when("draw", transitionFrom: "sketched", to: "drawn")
  }
}

final class Square: Shape {
  required init(sides: Int) {
    super.init(sides: 4)
  }
}

/// An initializer with parameters and a `deinit` that reports the object is gone.
@StateMachine
final class Connection {
  let host: String
  let port: Int
  private let onDeinit: () -> Void

  init(host: String, port: Int, onDeinit: @escaping () -> Void) {
    self.host = host
    self.port = port
    self.onDeinit = onDeinit
  }

  deinit {
    onDeinit()
  }

  static let stateMachine = StateMachineDefinition<Connection> { sm in
    sm.addState("disconnected")
    sm.addState("connected")
    sm.when("connect", transitionFrom: "disconnected", to: "connected")
    sm.when("disconnect", transitionFrom: "connected", to: "disconnected")
    sm.after("connect") { $0.disconnect() }  // a queued event that holds the object
  }
}

// MARK: - Nested classes

/// A struct with a nested machine class.
struct Garage {
  @StateMachine
  final class Shutter {
    static let stateMachine = StateMachineDefinition<Shutter> { sm in
      sm.addState("down")
      sm.addState("up")
      sm.when("raise", transitionFrom: "down", to: "up")
    }
  }

  let shutter = Shutter()
}

/// A class with a nested machine class, itself nested one level deeper.
final class Building {
  final class Floor {
    @StateMachine
    final class Elevator {
      static let stateMachine = StateMachineDefinition<Elevator> { sm in
        sm.addState("idle")
        sm.addState("moving")
        sm.when("call", transitionFrom: "idle", to: "moving")
        sm.when("arrive", transitionFrom: "moving", to: "idle")
      }
    }
  }

  @StateMachine
  final class Alarm {
    static let stateMachine = StateMachineDefinition<Alarm> { sm in
      sm.addState("armed")
      sm.addState("ringing")
      sm.when("trip", transitionFrom: "armed", to: "ringing")
    }
  }
}

/// An enum namespace with a non-final nested machine class.
enum Appliances {
  @StateMachine
  class Kettle {
    static let stateMachine = StateMachineDefinition<Kettle> { sm in
      sm.addState("cold")
      sm.addState("boiling")
      sm.when("heat", transitionFrom: "cold", to: "boiling")
    }
  }
}

// MARK: - Actor-isolated and Sendable classes

/// A `@MainActor` class: generated members and the conformance are main-actor isolated.
@MainActor
@StateMachine
final class Screen {
  var shown: [String] = []

  static let stateMachine = StateMachineDefinition<Screen> { sm in
    sm.addState("hidden")
    sm.addState("visible")
    sm.when("show", transitionFrom: "hidden", to: "visible")
    sm.when("hide", transitionFrom: "visible", to: "hidden")
    sm.after("show") { $0.shown.append($0.state) }
  }
}

/// A `Sendable` class (checked: only `let`s) gets a lock.
@StateMachine
final class SendableBeacon: Sendable {
  let id: Int

  init(id: Int) {
    self.id = id
  }

  static let stateMachine = StateMachineDefinition<SendableBeacon> { sm in
    sm.addState("dark")
    sm.addState("lit")
    sm.when("light", transitionFrom: "dark", to: "lit")
  }
}

/// Marks a deinit from a `@Sendable` context.

@Suite("Awkward classes", .timeLimit(.minutes(1)))
struct AwkwardClassesTests {
  @Test("final class")
  func finalClass() {
    let lamp = FinalLamp()
    #expect(lamp.isOff)
    #expect(lamp.switchOn())
    #expect(lamp.isOn)
    #expect(lamp.canSwitchOff)
    #expect(!lamp.switchOn())
  }

  @Test("non-final class")
  func nonFinalClass() {
    let door = Door()
    #expect(door.state == "closed")
    #expect(door.open())
    #expect(door.isOpen)
    #expect(door.log == ["door opened"])
  }

  @Test("a subclass of a non-final class uses the machine, and callbacks dispatch to its overrides")
  func subclass() {
    let door = SlidingDoor(width: 120)
    #expect(door.state == "closed")
    #expect(door.isClosed)
    #expect(door.canOpen)
    #expect(door.open())
    #expect(door.isOpen)
    #expect(door.log == ["sliding door opened, width 120"])
    #expect(door.fire("close"))
    #expect(door.state == "closed")
    #expect(door.stateMachineDefinition === Door.stateMachine)
    // Through a base-class reference as well.
    let asDoor: Door = door
    #expect(asDoor.open())
    #expect(door.log.count == 2)
  }

  @Test("public class")
  func publicClass() {
    let gate = PublicGate()
    #expect(gate.isShut)
    #expect(gate.unlatch())
    #expect(gate.isAjar)
    #expect(gate.availableEvents.isEmpty)
  }

  @Test("every initializer starts in the initial state")
  func everyInitializerStartsInTheInitialState() throws {
    let designated = Ticket(number: 1, title: "crash")
    let convenience = Ticket(number: 2)
    let chained = Ticket()
    let failable = try #require(Ticket(parsing: "3"))
    #expect(Ticket(parsing: "x") == nil)
    for ticket in [designated, convenience, chained, failable] {
      #expect(ticket.state == "new")
      #expect(ticket.isNew)
    }
    #expect(designated.triage())
    #expect(designated.isTriaged)
    // Objects do not share state.
    #expect(convenience.isNew)
    #expect(failable.number == 3)
  }

  @Test("required and convenience initializers of a non-final class and its subclass")
  func requiredInitializers() {
    let triangle = Shape()
    let square = Square(sides: 0)
    #expect(triangle.isSketched)
    #expect(square.isSketched)
    #expect(square.sides == 4)
    #expect(square.draw())
    #expect(square.isDrawn)
    #expect(triangle.isSketched)
  }

  @Test("an initializer with parameters, a deinit, and no retain cycle through the machine")
  func initWithParametersAndDeinit() {
    let flag = TestRecorder()
    weak var weakConnection: Connection?
    do {
      let connection = Connection(host: "example.org", port: 443, onDeinit: { flag.increment("deinit") })
      weakConnection = connection
      #expect(connection.isDisconnected)
      #expect(connection.connect())  // after(connect) queues disconnect
      #expect(connection.isDisconnected)
      #expect(connection.host == "example.org")
      #expect(connection.port == 443)
    }
    #expect(weakConnection == nil)
    #expect(flag["deinit"] == 1)
  }

  @Test("a class nested in a struct")
  func nestedInStruct() {
    let garage = Garage()
    #expect(garage.shutter.isDown)
    #expect(garage.shutter.raise())
    #expect(garage.shutter.isUp)
    let shutter = Garage.Shutter()
    #expect(shutter.state == "down")
  }

  @Test("classes nested in classes, two levels deep, and in an enum")
  func nestedInClasses() {
    let elevator = Building.Floor.Elevator()
    #expect(elevator.isIdle)
    #expect(elevator.call())
    #expect(elevator.isMoving)
    #expect(elevator.availableEvents == ["arrive"])
    let alarm = Building.Alarm()
    #expect(alarm.trip())
    #expect(alarm.isRinging)
    let kettle = Appliances.Kettle()
    #expect(kettle.heat())
    #expect(kettle.isBoiling)
  }

  @Test("a @MainActor class")
  @MainActor
  func mainActorClass() throws {
    let screen = Screen()
    #expect(screen.isHidden)
    #expect(screen.show())
    #expect(screen.isVisible)
    #expect(screen.shown == ["visible"])
    #expect(screen.canHide)
    #expect(screen.fire("hide"))
    #expect(screen.availableEvents == ["show"])
    try screen.restoreState("visible")
    #expect(screen.isVisible)
  }

  @Test("a Sendable class is usable from another task")
  func sendableClass() async {
    let beacon = SendableBeacon(id: 7)
    let lit = await Task.detached { beacon.light() }.value
    #expect(lit)
    #expect(beacon.isLit)
    #expect(beacon.id == 7)
  }

  @Test("an event and a state with the same name, and a guard that decides the event")
  func eventsNamedLikeStates() {
    let hatch = Hatch()
    #expect(hatch.isClosed)
    #expect(!hatch.canOpen)
    #expect(!hatch.open())
    #expect(hatch.isClosed)
    hatch.unlocked = true
    #expect(hatch.canOpen)
    #expect(hatch.open())
    #expect(hatch.isOpen)
    #expect(hatch.canClosed)
    #expect(hatch.closed())
    #expect(hatch.state == "closed")
  }
}
