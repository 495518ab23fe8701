import Foundation

/// Where Nimbus keeps its files, per the XDG Base Directory specification: each directory is
/// `$XDG_…_HOME/nimbus`, or under `$HOME` when the variable is unset, empty or relative (the
/// specification says a relative path is invalid and must be ignored).
///
/// The one place these are worked out: the user database, the large catalogue tier and the fine
/// land levels live in `data`, the weather and TMDB responses in `cache`.
public struct NimbusDirectories: Equatable, Sendable {
    /// `$XDG_DATA_HOME/nimbus`, else `~/.local/share/nimbus`.
    public let data: URL
    /// `$XDG_CACHE_HOME/nimbus`, else `~/.cache/nimbus`.
    public let cache: URL
    /// `$XDG_CONFIG_HOME/nimbus`, else `~/.config/nimbus`.
    public let config: URL
    /// `$XDG_STATE_HOME/nimbus`, else `~/.local/state/nimbus`.
    public let state: URL

    /// The directories `environment` names; `$HOME` (else the account's home directory) where it names none.
    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func directory(_ variable: String, default relativeToHome: String) -> URL {
            let base: URL
            if let xdg = environment[variable], xdg.hasPrefix("/") {
                base = URL(fileURLWithPath: xdg, isDirectory: true)
            } else {
                base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(relativeToHome, isDirectory: true)
            }
            return base.appendingPathComponent("nimbus", isDirectory: true)
        }
        data = directory("XDG_DATA_HOME", default: ".local/share")
        cache = directory("XDG_CACHE_HOME", default: ".cache")
        config = directory("XDG_CONFIG_HOME", default: ".config")
        state = directory("XDG_STATE_HOME", default: ".local/state")
    }
}
