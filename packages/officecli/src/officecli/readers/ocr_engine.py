"""What a run says about the OCR engine when it is missing (cheap to import: a command
reports it without loading the OCR code)."""

INSTALL_HINT = (
    "install Tesseract 5 and its language data: "
    "apt-get install tesseract-ocr tesseract-ocr-jpn tesseract-ocr-jpn-vert"
)
OCR_UNAVAILABLE = "OCR not available: " + INSTALL_HINT
