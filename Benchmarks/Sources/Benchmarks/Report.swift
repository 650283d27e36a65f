/// Formats `value` with `digits` decimals.
func format(_ value: Double, digits: Int = 2) -> String {
  var scaled = value
  for _ in 0..<digits { scaled *= 10 }
  let rounded = Int(scaled.rounded())
  guard digits > 0 else { return String(rounded) }
  var divisor = 1
  for _ in 0..<digits { divisor *= 10 }
  let fraction = String(abs(rounded) % divisor)
  let sign = rounded < 0 ? "-" : ""
  return sign + String(abs(rounded) / divisor) + "."
    + String(repeating: "0", count: digits - fraction.count) + fraction
}

/// Pads `text` on the left (numbers) or right (labels) to `width` characters.
func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return right ? padding + text : text + padding
}

/// Prints the table: median, fastest and slowest CPU ns/event, the median of the per-round ratios
/// to `baseline`, and the median wall-clock ns/event.
func printTable(_ measurements: [Measurement], baseline: Measurement) {
  let labels = measurements.map { pad("(\($0.id))", 5) + " " + $0.name }
  let labelWidth = labels.map(\.count).max() ?? 0
  let header =
    pad("case", labelWidth) + "  " + pad("ns/event", 8, right: true) + "  "
    + pad("min", 7, right: true) + "  " + pad("max", 7, right: true) + "  "
    + pad("x enum", 7, right: true) + "  " + pad("wall ns", 8, right: true) + "  "
    + pad("malloc/ev", 9, right: true)
  print(header)
  print(String(repeating: "-", count: header.count))
  for (label, measurement) in zip(labels, measurements) {
    print(
      pad(label, labelWidth) + "  " + pad(format(measurement.median), 8, right: true)
        + "  " + pad(format(measurement.fastest), 7, right: true) + "  "
        + pad(format(measurement.slowest), 7, right: true) + "  "
        + pad(format(measurement.ratio(to: baseline)), 7, right: true) + "  "
        + pad(format(measurement.wallMedian), 8, right: true) + "  "
        + pad(measurement.mallocsPerEvent.map { format($0) } ?? "n/a", 9, right: true))
  }
}

/// Prints whether `ratio` (a median of per-round ratios) ≤ `limit`.
func printTarget(_ description: String, ratio: Double, limit: Double, detail: String) {
  let verdict = ratio <= limit ? "MET   " : "MISSED"
  print("\(verdict) \(description): \(format(ratio))x (medians \(detail))")
}
