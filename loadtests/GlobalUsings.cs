// The namespaces nearly every file of the comparator opens (the SDK's implicit usings are off for
// every project, see Directory.Build.props): opened once here for the whole comparator.
global using System;
global using System.Collections.Generic;
global using System.Globalization;
global using System.Linq;
