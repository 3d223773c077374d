"""draw.io diagrams (.drawio, .dio), compressed or not."""
