using System;

namespace Comparator.Contracts
{
    /// <summary>The object the json endpoint returns N of.</summary>
    public sealed class SampleItem
    {
        public int Id { get; set; }
        public string Name { get; set; } = "";
        public DateTime CreatedOn { get; set; }
    }
}
