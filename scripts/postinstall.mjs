console.log("postinstall placeholder")
