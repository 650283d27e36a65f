// swift-tools-version: 6.1
import PackageDescription

// The `statemachine` command-line tool: validate, render and run definitions kept as data (our
// JSON, TBStateMachine JSON, SCXML). A package of its own, so that the library keeps no
// dependency but swift-syntax for its macro.
let package = Package(
  name: "StateMachinesTools",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "statemachine", targets: ["statemachine"]),
    // The live inspector for apps (issue 22, INSPECTOR.md B.3): serve a page that watches and
    // drives attached objects.
    .library(name: "StateMachinesInspector", targets: ["StateMachinesInspector"]),
  ],
  dependencies: [
    // The traits SQLite and PostgreSQL bring the stores for `statemachine store` (PERSISTENCE.md §11).
    .package(name: "StateMachines", path: "..", traits: ["SQLite", "PostgreSQL"]),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // The inspector's HTTP server: no dependencies of its own, 0.x so pinned to the minor (INSPECTOR.md B.2).
    .package(url: "https://github.com/swhitty/FlyingFox", .upToNextMinor(from: "0.27.1")),
  ],
  targets: [
    // The inspector's server and page (issue 22): records stream over SSE, events in by POST.
    .target(
      name: "StateMachinesInspector",
      dependencies: [
        .product(name: "StateMachines", package: "StateMachines"),
        .product(name: "FlyingFox", package: "FlyingFox"),
      ],
      resources: [.copy("Page")]
    ),
    .executableTarget(
      name: "statemachine",
      dependencies: [
        .product(name: "StateMachines", package: "StateMachines"),
        .product(name: "StateMachinesSCXML", package: "StateMachines"),
        .product(name: "StateMachinesSQLite", package: "StateMachines"),
        .product(name: "StateMachinesPostgres", package: "StateMachines"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        "StateMachinesInspector",
      ]
    ),
    // Runs the built `statemachine` on a chart per definition error (issue 26 §2).
    .testTarget(
      name: "statemachineTests",
      dependencies: [
        .product(name: "StateMachines", package: "StateMachines"),
        .product(name: "StateMachinesSCXML", package: "StateMachines"),
        // Tests of `statemachine store` read and damage the database with SQL: a SQLite file, or
        // a schema of a PostgreSQL server (STATEMACHINES_PG_URL).
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]
    ),
    // The inspector's handlers without sockets and over loopback (INSPECTOR.md B.7 2–3).
    .testTarget(
      name: "StateMachinesInspectorTests",
      dependencies: [
        "StateMachinesInspector",
        .product(name: "StateMachines", package: "StateMachines"),
        .product(name: "FlyingFox", package: "FlyingFox"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
