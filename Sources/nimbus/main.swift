import NimbusApp

NimbusCommand.runFromCommandLine()
