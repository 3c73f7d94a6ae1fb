/** The greeting key for an hour of the day. */
export function greetingKey(
  hour: number,
): 'home.greeting.morning' | 'home.greeting.noon' | 'home.greeting.afternoon' | 'home.greeting.evening' {
  if (hour >= 5 && hour < 11) return 'home.greeting.morning';
  if (hour >= 11 && hour < 13) return 'home.greeting.noon';
  if (hour >= 13 && hour < 18) return 'home.greeting.afternoon';
  return 'home.greeting.evening';
}
