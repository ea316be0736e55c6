using System;
using System.Globalization;
using Newtonsoft.Json;

namespace Comparator.Contracts
{
    /// <summary>
    /// The json endpoint's data and its serialization. Items are deterministic (no clock, no
    /// randomness) so every stack sends byte-identical bodies; every stack serializes with the
    /// same Newtonsoft.Json settings through <see cref="Serialize"/>.
    /// </summary>
    public static class JsonSample
    {
        public const int DefaultItems = 3;
        public const int MaxItems = 10000;

        private static readonly DateTime Epoch = new DateTime(2015, 1, 1, 0, 0, 0, DateTimeKind.Utc);

        private static readonly JsonSerializerSettings Settings = new JsonSerializerSettings
        {
            Formatting = Formatting.None,
            DateFormatHandling = DateFormatHandling.IsoDateFormat,
            DateTimeZoneHandling = DateTimeZoneHandling.Utc,
            Culture = CultureInfo.InvariantCulture,
        };

        /// <summary>
        /// Puts the contract's settings on a framework's own settings object (MVC's or Web API's
        /// formatter), so a stack that serializes through its formatter still sends the same bytes.
        /// </summary>
        public static void ApplySettings(JsonSerializerSettings target)
        {
            target.Formatting = Settings.Formatting;
            target.DateFormatHandling = Settings.DateFormatHandling;
            target.DateTimeZoneHandling = Settings.DateTimeZoneHandling;
            target.Culture = Settings.Culture;
            // MVC's default is camelCase; the contract's names are the properties' own (Id, Name, CreatedOn).
            target.ContractResolver = new Newtonsoft.Json.Serialization.DefaultContractResolver();
        }

        public static SampleItem[] Create(int count)
        {
            if (count < 0 || count > MaxItems) throw new ArgumentOutOfRangeException(nameof(count));
            var items = new SampleItem[count];
            for (var i = 0; i < count; i++)
                items[i] = new SampleItem { Id = i + 1, Name = "Item " + (i + 1).ToString(CultureInfo.InvariantCulture), CreatedOn = Epoch.AddMinutes(i) };
            return items;
        }

        public static string Serialize(SampleItem[] items) => JsonConvert.SerializeObject(items, Settings);

        public static SampleItem[]? Deserialize(string json) => JsonConvert.DeserializeObject<SampleItem[]>(json, Settings);

        /// <summary>
        /// Reads the items query value: absent means the default; anything that is not an integer
        /// in 0..MaxItems is refused (the service answers 400).
        /// </summary>
        public static bool TryParseItems(string? raw, out int items)
        {
            items = DefaultItems;
            if (raw == null) return true;
            return int.TryParse(raw, NumberStyles.None, CultureInfo.InvariantCulture, out items) && items <= MaxItems;
        }
    }
}
