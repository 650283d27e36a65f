// libFuzzer harness: TBStateMachine JSON, through the same entry point (the format is detected),
// with a corpus of TB documents, so that the mutations explore the TB loader.
import Foundation
import StateMachines

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTBLoader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  FuzzDriver.load { try StateMachineDefinition<DynamicStateMachine>(json: Data(bytes: data, count: size), clock: $0.clock, bind: { _ in }, $0.limit) }
  return 0
}
