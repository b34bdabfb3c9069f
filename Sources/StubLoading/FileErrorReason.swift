#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's reason for a failed file operation, for messages: `No such file or directory`,
/// `Permission denied`. FoundationEssentials has no localized descriptions, so there it is read from
/// the underlying POSIX error; with full Foundation it is Foundation's own description.
package enum FileErrorReason {
    package static func describe(_ error: any Error) -> String {
        #if canImport(FoundationEssentials)
            if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
            guard let cocoa = error as? CocoaError else { return "\(error)" }
            if let posix = cocoa.underlying as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
            switch cocoa.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
            case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
            case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
            case .fileWriteFileExists: return String(cString: strerror(EEXIST))
            case .fileReadCorruptFile: return "the file is corrupt"
            default: return "file error \(cocoa.code.rawValue)"
            }
        #else
            return error.localizedDescription
        #endif
    }
}
