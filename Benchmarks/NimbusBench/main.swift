import Foundation

// Entry point: see Benchmark.swift.
NimbusBenchmark.main()
