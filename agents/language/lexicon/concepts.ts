/** Everyday words for what common APIs are about: "how warm" meets "temperature", "how much" meets "amount". */
export const CONCEPTS: Readonly<Record<string, readonly string[]>> = {
  weather: ["weather", "temperature", "warm", "cold", "hot", "rain", "raining", "rainy", "sunny", "snow", "snowing", "wind", "windy", "humid", "humidity", "umbrella", "forecast", "degrees", "celsius", "fahrenheit"],
  money: ["money", "amount", "cost", "costs", "price", "prices", "priced", "expensive", "cheap", "much", "pay", "exchange", "currency", "currencies", "euro", "euros", "dollar", "dollars", "yen", "pound", "pounds", "rate"],
  calendar: ["calendar", "agenda", "appointment", "meeting", "event", "events", "schedule", "diary"],
  location: ["where", "address", "located", "location", "coordinates", "latitude", "longitude", "map"],
  music: ["song", "songs", "track", "tracks", "music", "album", "albums", "artist", "band", "playlist", "listen"],
  food: ["recipe", "recipes", "cook", "cooking", "dish", "meal", "ingredient", "ingredients", "dinner", "lunch", "breakfast"],
  job: ["job", "jobs", "position", "vacancy", "vacancies", "hiring", "career", "employer", "salary"],
  news: ["news", "article", "articles", "headline", "headlines", "story", "stories", "press", "reporting", "journalist", "journalists"],
  holiday: ["holiday", "holidays", "vacation", "festival", "bank holiday", "public"],
};
