import NimbusApp

NimbusCommand.main()
