// swift-tools-version: 6.1
import PackageDescription

// An app that shows its state machines on the live inspector page: a package of its own, as an
// app's would be, that depends on StateMachines with the trait `Inspector` (FlyingFox, nothing
// else). CI runs it in headless Chromium.
//
//   cd Examples/InspectorDemo && swift run InspectorDemo
let package = Package(
  name: "InspectorDemo",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [
    // An app would write `.package(url: "https://github.com/OWNER/StateMachines", from: "…", traits: ["Inspector"])`.
    .package(name: "StateMachines", path: "../..", traits: ["Inspector"])
  ],
  targets: [
    .executableTarget(
      name: "InspectorDemo",
      dependencies: [
        .product(name: "StateMachines", package: "StateMachines"),
        .product(name: "StateMachinesInspector", package: "StateMachines"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
