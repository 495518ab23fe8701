import NimbusDomain

/// A problem of the settings file in the UI language: where it is (line, and column for text that
/// is not TOML) and what is wrong, in the app's own words.
public enum SettingsProblemText {
    public static func message(_ problem: SettingsProblem, l10n: L10n) -> String {
        let text: String
        switch problem.reason {
        case .notTOML(let syntax):
            text = self.syntax(syntax, l10n: l10n)
            if let line = problem.line, let column = problem.column {
                return l10n.format(.configAtColumn, l10n.number(line), l10n.number(column), text)
            }
        default:
            // English says it as the file reader does (the log and the tests read the same words).
            if l10n.language == .en { return problem.description }
            switch problem.reason {
            case .notAFile: return l10n[.configNotFile]
            case .tooLarge: return l10n.format(.configTooLarge, String(SettingsProblem.maximumFileSize / 1024))
            case .unreadable: return l10n[.configUnreadable]
            case .notWritable(let why): return l10n.format(.configNotWritten, why)
            case .busy: return l10n[.configBusy]
            default: text = value(problem.reason, l10n: l10n)
            }
        }
        guard let line = problem.line else { return SettingsProblem.fileName + ": " + text }
        return l10n.format(.configAtLine, String(line), text)
    }

    private static func value(_ reason: SettingsProblem.Reason, l10n: L10n) -> String {
        switch reason {
        case .badValue(let key, let allowed):
            if allowed.isEmpty { return l10n[.configHome] }
            if key == UserSettings.Key.defaultTab.rawValue { return l10n[.configTabRange] }
            return l10n.format(.configMustBe, key, l10n.list(allowed))
        case .unknownCity(let id): return l10n.format(.configHomeUnknown, String(id))
        default: return l10n[.configNotTOML]
        }
    }

    private static func syntax(_ syntax: SettingsProblem.Syntax, l10n: L10n) -> String {
        switch syntax {
        case .unclosedString: l10n[.configSyntaxUnclosed]
        case .notKeyValue: l10n[.configSyntaxNotKeyValue]
        case .missingValue: l10n[.configSyntaxMissingValue]
        case .nulByte: l10n[.configSyntaxNul]
        case .other: l10n[.configNotTOML]
        }
    }
}
