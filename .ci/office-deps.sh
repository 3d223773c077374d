#!/usr/bin/env bash
# What the office tools' tests need from Debian: Tesseract with Japanese data (OCR), a Japanese
# font (the tests draw scanned pages), LibreOffice headless (--recalc, --via-pdf).
set -euo pipefail
need=()
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr tesseract-ocr-eng tesseract-ocr-jpn tesseract-ocr-jpn-vert)
[ -f /usr/share/fonts/opentype/ipafont-gothic/ipag.ttf ] || need+=(fonts-ipafont-gothic)
command -v soffice >/dev/null 2>&1 || need+=(libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress)
if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
echo "tesseract: $(tesseract --version 2>/dev/null | head -n 1 || echo unavailable); soffice: $(command -v soffice || echo unavailable)"
